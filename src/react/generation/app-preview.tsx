'use client';
/** The generated app in a sandboxed iframe, with reload, open in a new tab and device widths. */
import { useState } from 'react';
import { safeHttpUrl } from '../shared/safe-url.js';
import { useAgentLabels } from '../provider/use-agent-labels.js';
import { useGeneration } from './use-generation.js';
import { useProject } from './use-project.js';
import { cx } from '../shared/class-names.js';

/** Props of `AppPreview`. */
export interface AppPreviewProps {
  /** The project to preview; the provider's current generation by default. */
  projectId?: string;
  /** An explicit address to preview instead of the project's. */
  url?: string;
  className?: string;
}

/** Preview widths. */
export type PreviewDevice = 'mobile' | 'tablet' | 'desktop';

const deviceWidths: Record<PreviewDevice, string> = { mobile: '375px', tablet: '768px', desktop: '100%' };
const devices: readonly PreviewDevice[] = ['mobile', 'tablet', 'desktop'];

/**
 * The sandbox for an app at `url`. `allow-same-origin` lets a cross-origin app keep its own origin
 * (cookies, storage) and is harmless there; for an app on the host page's own origin it would let the
 * app's scripts remove the sandbox and reach the page, so it is dropped.
 */
export function previewSandbox(url: string, hostOrigin: string | undefined): string {
  const sameOrigin = hostOrigin !== undefined && new URL(url).origin === hostOrigin;
  return sameOrigin
    ? 'allow-scripts allow-forms allow-popups'
    : 'allow-scripts allow-forms allow-same-origin allow-popups';
}

/** Shows the live app once it is ready (or any http/https `url`). */
export function AppPreview({ projectId, url, className }: AppPreviewProps) {
  const text = useAgentLabels().appPreview;
  const { generation } = useGeneration(projectId);
  const id = projectId ?? generation?.projectId;
  // Alone on the page (no generation in this provider) it asks the shared poller for the address.
  const project = useProject(generation === undefined ? id : undefined)?.project;
  const [device, setDevice] = useState<PreviewDevice>('desktop');
  const [reloads, setReloads] = useState(0);
  // The app is previewed once it is ready: after the generation completed, or when its status says so.
  const rawUrl =
    url ??
    (generation?.status === 'completed' ? generation.appUrl : undefined) ??
    (project?.project_status === 'ready' ? project.app_url : undefined);
  const safeUrl = safeHttpUrl(rawUrl);
  const state = rawUrl === undefined ? 'empty' : safeUrl === undefined ? 'unsafe' : 'ready';
  const hostOrigin = typeof window === 'undefined' ? undefined : window.location.origin;

  return (
    <section
      className={cx('ae-preview', className)}
      data-state={state}
      data-device={device}
      aria-label={text.regionLabel}
    >
      {safeUrl === undefined ? (
        <p className="ae-muted">{state === 'unsafe' ? text.unsafeUrl : text.empty}</p>
      ) : (
        <>
          <div className="ae-toolbar">
            <div className="ae-segmented" role="group" aria-label={text.devicesLabel}>
              {devices.map((value) => (
                <button
                  key={value}
                  type="button"
                  className="ae-button"
                  aria-pressed={device === value}
                  onClick={() => setDevice(value)}
                >
                  {text[value]}
                </button>
              ))}
            </div>
            <button type="button" className="ae-button" onClick={() => setReloads((count) => count + 1)}>
              {text.reload}
            </button>
            <a className="ae-button" href={safeUrl} target="_blank" rel="noopener noreferrer">
              {text.openInNewTab}
            </a>
          </div>
          <div className="ae-frame-stage">
            <iframe
              key={`${safeUrl}#${reloads}`}
              className="ae-frame"
              src={safeUrl}
              title={text.frameTitle}
              sandbox={previewSandbox(safeUrl, hostOrigin)}
              referrerPolicy="no-referrer"
              loading="lazy"
              style={{ width: deviceWidths[device] }}
            />
          </div>
        </>
      )}
    </section>
  );
}
