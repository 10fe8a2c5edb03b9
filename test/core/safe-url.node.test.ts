/** The one check that decides whether a string may become a link, a frame or a redirect (core's `parseHttpUrl`). */
import { describe, expect, it } from 'vitest';
import { parseHttpUrl, safeHttpUrl } from 'agent-embed/core';

describe('parseHttpUrl', () => {
  it('takes an absolute http(s) URL with a host, exactly as given', () => {
    for (const value of ['https://app.example/', 'http://localhost:3000/x?y=1#z', 'https://bücher.example/ä'])
      expect(parseHttpUrl(value)?.href, value).toBe(new URL(value).href);
  });

  it('refuses other schemes, relative URLs and non-strings', () => {
    for (const value of ['javascript:alert(1)', 'data:text/html,x', '//evil.example/', '/path', 'ftp://x.example/', 5])
      expect(parseHttpUrl(value), String(value)).toBeUndefined();
  });

  it('refuses a user name or password: the address reads as one host and opens another', () => {
    for (const value of [
      'https://app.example@evil.example/',
      'https://user:pass@evil.example/',
      'https://:p@evil.example/',
    ])
      expect(parseHttpUrl(value), value).toBeUndefined();
  });

  it('refuses what the URL parser would forgive and rewrite: whitespace, control characters, backslashes', () => {
    for (const value of [
      ' https://ok.example/',
      'https://ok.example/a\tb',
      'https://ok.exa\nmple/',
      'https:\\\\ok.example\\a',
      '\u0001https://ok.example/',
      'https://ok.example/a b',
      'https://ok.example/\u00a0',
      'https://ok.example/\u0085',
    ])
      expect(parseHttpUrl(value), JSON.stringify(value)).toBeUndefined();
  });
});

describe('safeHttpUrl', () => {
  it('allows surrounding spaces (trimmed) and gives the normalised URL', () => {
    expect(safeHttpUrl('  https://app.example  ')).toBe('https://app.example/');
  });

  it('refuses inside what parseHttpUrl refuses', () => {
    expect(safeHttpUrl(' https://app.example@evil.example/ ')).toBeUndefined();
    expect(safeHttpUrl('https://ok.example/a\tb')).toBeUndefined();
  });
});
