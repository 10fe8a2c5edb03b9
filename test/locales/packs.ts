/** The built-in locale packs by tag, and the words each may share with English (for the locale tests). */
import type { AgentLabels } from 'agent-embed';
import { ar } from 'agent-embed/locales/ar';
import { de } from 'agent-embed/locales/de';
import { es } from 'agent-embed/locales/es';
import { fr } from 'agent-embed/locales/fr';
import { ja } from 'agent-embed/locales/ja';
import { ptBR } from 'agent-embed/locales/pt-BR';

/** Every built-in pack, by the tag of its entry point. */
export const packs: Record<string, AgentLabels> = { de, fr, es, 'pt-BR': ptBR, ja, ar };

/** Names that are the same in every language. */
const brands = ['GitHub', 'Vercel', 'Netlify'];

/**
 * English strings a pack may keep as they are, because the language says it the same way (checked one by one;
 * anything else equal to English is an untranslated string).
 */
export const sameAsEnglish: Record<string, readonly string[]> = {
  de: [
    ...brands,
    'Name',
    'Status',
    'App',
    'Chat',
    'Tablet',
    'Desktop',
    'Details',
    'Installation',
    'Repository',
    'Branch',
  ],
  fr: [...brands, 'Conversation', 'Mode', 'Design', 'Chat', 'Installation', 'Public', 'Mobile', 'Active'],
  es: [...brands, 'App', 'Chat'],
  'pt-BR': [...brands, 'App', 'Chat', 'Status', 'Design', 'Desktop', 'Tablet', 'Branch'],
  ja: brands,
  ar: brands,
};
