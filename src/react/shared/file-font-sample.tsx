/**
 * A hidden sample of the build log's file rows in their font. Mounted before a build shows files (with the log, and
 * with the builder that will open one), it makes the browser look that font up then: in the frame that showed the
 * first files, Chromium's font lookups doubled the layout (median 5.7 against 1.9 ms, 15.2 against 7.2 ms at 4x CPU
 * throttling; `npm run bench:browser` traces).
 */
export function FileFontSample() {
  return (
    <span className="ae-visually-hidden ae-file-font" aria-hidden="true">
      0
    </span>
  );
}
