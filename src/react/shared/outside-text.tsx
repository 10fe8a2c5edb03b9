/**
 * Text from outside the library, shown to the end user: a project's name, a file's path, a prompt. It may be in any
 * script, and it may carry bidirectional controls that would reorder what is around it.
 */

/**
 * The text with each embedding or override control (U+202A–U+202E) shown as U+FFFD: `invoice\u202Egnp.exe` would
 * otherwise read "invoiceexe.png" (the "Trojan Source" trick). Isolates (U+2066–U+2069) stay: they cannot leak out.
 */
export const visibleText = (text: string) => text.replace(/[\u202A-\u202E]/g, '\uFFFD');

/**
 * `visibleText` for a sentence of the labels, between FSI and PDI (U+2068, U+2069): its direction is its own, so a
 * Latin name's neutral characters (a parenthesis, the full stop after it) do not resolve against an Arabic sentence.
 */
export const isolated = (text: string) => `\u2068${visibleText(text)}\u2069`;

/** `visibleText` on its own, in a `<bdi>`: its direction comes from the text, not from the screen around it. */
export function OutsideText({ children }: { children: string }) {
  return <bdi>{visibleText(children)}</bdi>;
}
