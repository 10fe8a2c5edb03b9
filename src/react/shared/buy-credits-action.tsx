import { safeHttpUrl } from '../../core/index.js';
import { ExternalLink } from './external-link.js';
import { cx } from './class-names.js';

/** Props of `BuyCreditsAction`. */
export interface BuyCreditsActionProps {
  /** The button's action; wins over `url`. */
  onBuyCredits: (() => void) | undefined;
  /** Where the link goes without `onBuyCredits` (http/https only; nothing is rendered otherwise). */
  url: string | undefined;
  label: string;
  primary?: boolean;
}

/** The "Buy credits" next step: a button with `onBuyCredits`, else a link to `url`, else nothing. */
export function BuyCreditsAction({ onBuyCredits, url, label, primary = false }: BuyCreditsActionProps) {
  const className = cx('ae-button', primary && 'ae-button-primary');
  return onBuyCredits !== undefined ? (
    <button type="button" className={className} onClick={onBuyCredits}>
      {label}
    </button>
  ) : (
    <ExternalLink className={className} href={url}>
      {label}
    </ExternalLink>
  );
}

/** Whether `BuyCreditsAction` renders anything for these props. */
export function canBuyCredits(onBuyCredits: (() => void) | undefined, url: string | undefined): boolean {
  return onBuyCredits !== undefined || safeHttpUrl(url) !== undefined;
}
