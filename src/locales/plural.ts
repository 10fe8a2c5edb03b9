/** Counts in words: the plural form of a count picked by the locale's own rules (`Intl.PluralRules`). */

/** The forms of one counted phrase: `other` always, and any category the locale's rules name. */
export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

const rulesByLocale = new Map<string, Intl.PluralRules>();

/** The form of `forms` that `count` takes in `locale` (`other` when the locale has no such form). */
export function plural(locale: string, count: number, forms: PluralForms): string {
  let rules = rulesByLocale.get(locale);
  if (rules === undefined) {
    rules = new Intl.PluralRules(locale);
    rulesByLocale.set(locale, rules);
  }
  return forms[rules.select(count)] ?? forms.other;
}
