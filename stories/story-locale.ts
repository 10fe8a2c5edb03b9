/**
 * The toolbar's language and direction: every story can be seen in each built-in locale pack, and laid out
 * right to left or left to right whatever the language (`withAgent` passes `localeProps` to the provider).
 */
import type { Preview } from '@storybook/react-vite';
import type { AgentLabels, AgentProviderOptions, TextDirection } from 'agent-embed';
import { ar } from 'agent-embed/locales/ar';
import { de } from 'agent-embed/locales/de';
import { es } from 'agent-embed/locales/es';
import { fr } from 'agent-embed/locales/fr';
import { ja } from 'agent-embed/locales/ja';
import { ptBR } from 'agent-embed/locales/pt-BR';

/** Every built-in pack by tag (English is built in). */
export const storyLocales: Record<string, AgentLabels> = { de, fr, es, 'pt-BR': ptBR, ja, ar };

const capitalise = (name: string, tag: string) => name.charAt(0).toLocaleUpperCase(tag) + name.slice(1);
// Each language named in itself and capitalised as a menu item ("Français", "日本語").
const languageNames = Object.fromEntries(
  ['en', ...Object.keys(storyLocales)].map((tag) => [
    tag,
    capitalise(new Intl.DisplayNames([tag], { type: 'language' }).of(tag) ?? tag, tag),
  ]),
);

/** Toolbar globals: locale and direction. */
export const localeGlobalTypes: NonNullable<Preview['globalTypes']> = {
  locale: {
    description: 'Locale of the AgentProvider (its pack, lang and dir)',
    toolbar: {
      title: 'Locale',
      icon: 'globe',
      items: Object.entries(languageNames).map(([value, title]) => ({ value, title })),
      dynamicTitle: true,
    },
  },
  direction: {
    description: 'Text direction of the AgentProvider (by default the locale’s)',
    toolbar: {
      title: 'Direction',
      icon: 'transfer',
      items: [
        { value: 'locale', title: 'From the locale' },
        { value: 'ltr', title: 'Left to right' },
        { value: 'rtl', title: 'Right to left' },
      ],
      dynamicTitle: true,
    },
  },
};

/** Initial toolbar values: English, direction from the locale. */
export const localeInitialGlobals = { locale: 'en', direction: 'locale' };

/** The provider props the toolbar's globals ask for (none for English from the locale: the stories as written). */
export function localeProps(
  globals: Record<string, unknown>,
): Pick<AgentProviderOptions, 'locale' | 'locales' | 'dir'> {
  const locale = typeof globals.locale === 'string' && globals.locale in storyLocales ? globals.locale : undefined;
  const dir: TextDirection | undefined =
    globals.direction === 'ltr' || globals.direction === 'rtl' ? globals.direction : undefined;
  return {
    ...(locale === undefined ? {} : { locale, locales: storyLocales }),
    ...(dir === undefined ? {} : { dir }),
  };
}
