/** Placeholder rows for a list that is loading, announced once as busy text for assistive technology. */

/** Props of `Skeleton`. */
export interface SkeletonProps {
  /** How many placeholder rows (default 3). */
  rows?: number;
  /** The loading text read by screen readers (the rows themselves are hidden from them). */
  label: string;
  className?: string;
}

/** Grey, gently pulsing rows in the shape of the content to come; still under prefers-reduced-motion. */
export function Skeleton({ rows = 3, label, className }: SkeletonProps) {
  return (
    <div className={className === undefined ? 'ae-skeleton' : `ae-skeleton ${className}`} role="status">
      <span className="ae-visually-hidden">{label}</span>
      {Array.from({ length: rows }, (_, index) => (
        <span key={index} className="ae-skeleton-row" aria-hidden="true">
          <span className="ae-skeleton-line" />
          <span className="ae-skeleton-line ae-skeleton-line-short" />
        </span>
      ))}
    </div>
  );
}
