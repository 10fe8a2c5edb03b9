'use client';
/** How many builds the end user has left in the agency's quota, and when more come. Nothing without a quota. */
import { forwardRef, type HTMLAttributes } from 'react';
import { useAgentFormat } from '../provider/use-agent-format.js';
import { useAgentLabels } from '../provider/use-agent-labels.js';
import { cx } from '../shared/class-names.js';
import { quotaResetText } from '../shared/error-copy.js';
import { quotaOfUsage, useUsage } from './use-usage.js';
import { FormattedText } from '../shared/formatted-text.js';

/** Props of `UsageMeter`: any attribute of its root `div`. */
export type UsageMeterProps = HTMLAttributes<HTMLDivElement>;

/**
 * "3 of 20 builds left today", with a small bar; once none are left, when more come. `data-state` is `ok`,
 * `low` (a fifth or less left) or `exhausted`. Renders nothing until the usage is known or without a quota.
 */
export const UsageMeter = forwardRef<HTMLDivElement, UsageMeterProps>(function UsageMeter({ className, ...rest }, ref) {
  const usage = useUsage().data;
  const labels = useAgentLabels().usageMeter;
  const format = useAgentFormat();
  const quota = quotaOfUsage(usage);
  if (quota === undefined) return null;
  const left = Math.max(0, quota.limit - quota.used);
  const state = left === 0 ? 'exhausted' : left <= Math.max(1, Math.floor(quota.limit / 5)) ? 'low' : 'ok';
  const usedShare = quota.limit === 0 ? 100 : Math.min(100, (quota.used / quota.limit) * 100);
  return (
    <div ref={ref} className={cx('ae-usage', className)} data-state={state} {...rest}>
      <span className="ae-usage-bar" aria-hidden="true">
        <span style={{ width: `${usedShare}%` }} />
      </span>
      <span className="ae-usage-text">
        <FormattedText>
          {(f) => labels.left(f.number(left), f.number(quota.limit), quota.period, quota.limit)}
        </FormattedText>
        {left === 0 && <span className="ae-muted"> · {labels.moreAt(quotaResetText(quota, format))}</span>}
      </span>
    </div>
  );
});
