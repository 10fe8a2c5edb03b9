/** Arabic counted nouns: one and two are said in words (ملف واحد، ملفان), 3–10 take the plural, 11–99 the accusative. */
import { plural } from '../plural.js';

/** The forms of a counted noun in Arabic; each but `one` and `two` shows the count. */
export interface ArabicCounted {
  one: string;
  two: string;
  few: (count: string) => string;
  many: (count: string) => string;
  other: (count: string) => string;
}

/** The phrase for `value` (shown as `count`) in the right form. */
export function counted(value: number, count: string, forms: ArabicCounted): string {
  return plural('ar', value, {
    one: forms.one,
    two: forms.two,
    few: forms.few(count),
    many: forms.many(count),
    other: forms.other(count),
  });
}

/** ملف جديد: a new file. */
export const newFiles: ArabicCounted = {
  one: 'ملف جديد واحد',
  two: 'ملفان جديدان',
  few: (count) => `${count} ملفات جديدة`,
  many: (count) => `${count} ملفًا جديدًا`,
  other: (count) => `${count} ملف جديد`,
};

/** ملف معدّل: a changed file. */
export const changedFiles: ArabicCounted = {
  one: 'ملف معدّل واحد',
  two: 'ملفان معدّلان',
  few: (count) => `${count} ملفات معدّلة`,
  many: (count) => `${count} ملفًا معدّلًا`,
  other: (count) => `${count} ملف معدّل`,
};

/** خطوة: a step. */
export const steps: ArabicCounted = {
  one: 'خطوة واحدة',
  two: 'خطوتان',
  few: (count) => `${count} خطوات`,
  many: (count) => `${count} خطوةً`,
  other: (count) => `${count} خطوة`,
};

/** مستودع: a repository. */
export const repositories: ArabicCounted = {
  one: 'مستودع واحد',
  two: 'مستودعان',
  few: (count) => `${count} مستودعات`,
  many: (count) => `${count} مستودعًا`,
  other: (count) => `${count} مستودع`,
};

/** تحديث: an update. */
export const updates: ArabicCounted = {
  one: 'تحديث واحد آخر',
  two: 'تحديثان آخران',
  few: (count) => `${count} تحديثات أخرى`,
  many: (count) => `${count} تحديثًا آخر`,
  other: (count) => `${count} تحديث آخر`,
};
