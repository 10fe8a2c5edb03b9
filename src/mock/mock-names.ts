/** Names the mock gives from prompts: projects, their subject, and the files a follow-up creates. */

const fillerWords = new Set([
  'a',
  'an',
  'the',
  'build',
  'create',
  'make',
  'generate',
  'me',
  'please',
  'simple',
  'small',
  'basic',
  'with',
  'for',
  'and',
  'of',
  'to',
  'that',
  'my',
  'our',
  'new',
  'web',
  'app',
  'application',
  'website',
  'site',
  'page',
  'landing',
  'i',
  'want',
  'need',
  'in',
]);

/** The main subject of a prompt ("Build a todo app" gives "todo"), for names and file paths. */
export function promptSubject(prompt: string): string {
  const words = prompt.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  return words.find((word) => !fillerWords.has(word) && word.length > 2) ?? 'item';
}

const leadingWords = new Set([
  'a',
  'an',
  'the',
  'build',
  'make',
  'create',
  'me',
  'i',
  'want',
  'need',
  'please',
  'simple',
]);
const connectors = new Set([
  'with',
  'and',
  'for',
  'that',
  'which',
  'where',
  'to',
  'using',
  'in',
  'on',
  'of',
  'so',
  'like',
]);
const genericWords = new Set([
  'landing',
  'page',
  'website',
  'site',
  'web',
  'app',
  'application',
  'small',
  'new',
  'one',
]);

/** Up to four words of `words` from `start`, skipping articles, until a connector. */
function phraseAt(words: string[], start: number): { phrase: string[]; stop: string | undefined } {
  const phrase: string[] = [];
  for (let index = start; index < words.length; index++) {
    const word = words[index] as string;
    const lower = word.toLowerCase();
    if (phrase.length === 0 && leadingWords.has(lower)) continue;
    if (connectors.has(lower) && phrase.length > 0) return { phrase, stop: lower };
    if (phrase.length === 4) break;
    phrase.push(word);
  }
  return { phrase, stop: undefined };
}

/**
 * A project name from its prompt, as a person would name it: its subject in title case ("A recipe box with
 * tags" gives "Recipe Box"; "A landing page for a bakery" gives "Bakery").
 */
export function projectName(prompt: string): string {
  const words = prompt
    .replace(/[^\p{L}\p{N}\s'-]/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);
  const head = phraseAt(words, 0);
  let phrase = head.phrase;
  if (head.stop === 'for' && phrase.every((word) => genericWords.has(word.toLowerCase()))) {
    const after = phraseAt(words, words.findIndex((word) => word.toLowerCase() === 'for') + 1).phrase;
    if (after.length > 0) phrase = after;
  }
  const name = phrase.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(' ');
  return name.length > 60 ? `${name.slice(0, 57)}...` : name || 'Untitled project';
}

const changeVerbs = new Set([
  'add',
  'make',
  'change',
  'use',
  'put',
  'turn',
  'show',
  'update',
  'let',
  'can',
  'you',
  'it',
  'more',
  'some',
  'also',
  'now',
  'please',
  'instead',
]);

/** A component name for what a follow-up asks ("Add a dark theme" gives "DarkTheme"). */
export function changeName(prompt: string): string {
  const words = (prompt.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter(
    (word) => !fillerWords.has(word) && !changeVerbs.has(word) && word.length > 2,
  );
  return words.slice(0, 2).map(pascal).join('') || 'Change';
}

/** PascalCase of a word, for component file names. */
export function pascal(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
