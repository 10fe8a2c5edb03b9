/** The provider speaks the locale it is given: the pack picked by `locale`, overrides on top, `dir` from the script. */
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { GeneratePanel, localeDirection, pickLocale, plural } from 'agent-embed';
import { ar } from 'agent-embed/locales/ar';
import { de } from 'agent-embed/locales/de';
import { ja } from 'agent-embed/locales/ja';
import { ptBR } from 'agent-embed/locales/pt-BR';
import { cleanupRendered, renderWithMock } from './render-with-mock.js';

afterEach(cleanupRendered);

const rootOf = (container: HTMLElement) => container.querySelector('[data-agent-embed]') as HTMLElement;

describe('AgentProvider with a locale', () => {
  it('speaks the pack passed as labels', () => {
    renderWithMock(<GeneratePanel />, { provider: { locale: 'de', labels: de } });
    expect(screen.getByRole('button', { name: 'Erstellen' })).toBeInTheDocument();
    expect(screen.getByLabelText('Beschreiben Sie die gewünschte App')).toBeInTheDocument();
  });

  it('picks the pack of its locales map by locale, and labels win over it string by string', () => {
    const { container } = renderWithMock(<GeneratePanel />, {
      provider: { locale: 'ja', locales: { de, ja }, labels: { generatePanel: { submit: 'アプリを作る' } } },
    });
    expect(screen.getByRole('button', { name: 'アプリを作る' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: ja.generatePanel.heading })).toBeInTheDocument();
    expect(rootOf(container)).toHaveAttribute('lang', 'ja');
    expect(rootOf(container)).toHaveAttribute('dir', 'ltr');
  });

  it('falls back to English for a locale it has no pack for, and leaves dir to the page without a locale', () => {
    const withLocale = renderWithMock(<GeneratePanel />, { provider: { locale: 'sv', locales: { de } } });
    expect(screen.getByRole('button', { name: 'Generate' })).toBeInTheDocument();
    expect(rootOf(withLocale.container)).toHaveAttribute('dir', 'ltr');
    cleanupRendered();
    const without = renderWithMock(<GeneratePanel />);
    expect(rootOf(without.container)).not.toHaveAttribute('dir');
  });

  it('lays Arabic out right to left, unless the dir prop says otherwise', () => {
    const rtl = renderWithMock(<GeneratePanel />, { provider: { locale: 'ar', locales: { ar } } });
    expect(rootOf(rtl.container)).toHaveAttribute('dir', 'rtl');
    expect(screen.getByRole('button', { name: 'إنشاء' })).toBeInTheDocument();
    cleanupRendered();
    const forced = renderWithMock(<GeneratePanel />, { provider: { locale: 'ar', locales: { ar }, dir: 'ltr' } });
    expect(rootOf(forced.container)).toHaveAttribute('dir', 'ltr');
  });
});

describe('locale helpers', () => {
  it('picks the exact tag, then the language, then a regional pack of the language', () => {
    const locales = { de, 'pt-BR': ptBR };
    expect(pickLocale(locales, 'pt-BR')).toBe(ptBR);
    expect(pickLocale(locales, 'de-AT')).toBe(de);
    expect(pickLocale(locales, 'pt')).toBe(ptBR);
    expect(pickLocale(locales, 'pt-br')).toBe(ptBR);
    expect(pickLocale(locales, 'fr')).toBeUndefined();
    expect(pickLocale(undefined, 'de')).toBeUndefined();
  });

  it('knows the direction of a script', () => {
    expect(localeDirection('ar-EG')).toBe('rtl');
    expect(localeDirection('he')).toBe('rtl');
    expect(localeDirection('fa-IR')).toBe('rtl');
    expect(localeDirection('az-Arab')).toBe('rtl');
    expect(localeDirection('ku-Latn')).toBe('ltr');
    expect(localeDirection('en-US')).toBe('ltr');
    expect(localeDirection('not a tag')).toBeUndefined();
    expect(localeDirection(undefined)).toBeUndefined();
  });

  it('counts by the language’s plural rules', () => {
    const files = { zero: 'zero', one: 'one', two: 'two', few: 'few', many: 'many', other: 'other' };
    expect([0, 1, 2, 3, 11, 100].map((count) => plural('ar', count, files))).toEqual([
      'zero',
      'one',
      'two',
      'few',
      'many',
      'other',
    ]);
    expect([0, 1, 2].map((count) => plural('fr', count, files))).toEqual(['one', 'one', 'other']);
    expect(plural('ja', 1, files)).toBe('other');
    expect(plural('de', 1, { other: 'Dateien' })).toBe('Dateien');
  });
});
