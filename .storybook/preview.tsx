/** Project annotations of the Storybook: the agent convention of stories/story-agent.tsx, toolbars, a11y. */
import type { Preview } from '@storybook/react-vite';
import 'agent-embed/styles.css';
import {
  agentBeforeEach,
  agentGlobalTypes,
  agentInitialGlobals,
  agentLoader,
  withAgent,
} from '../stories/story-agent.js';
import { localeGlobalTypes, localeInitialGlobals } from '../stories/story-locale.js';

const preview = {
  // A docs page per component: its props table, description and every story as a state.
  tags: ['autodocs'],
  loaders: [agentLoader],
  beforeEach: agentBeforeEach,
  decorators: [withAgent],
  // The locale and direction toolbars come after the theme's.
  globalTypes: { ...agentGlobalTypes, ...localeGlobalTypes },
  initialGlobals: { ...agentInitialGlobals, ...localeInitialGlobals },
  parameters: {
    layout: 'fullscreen',
    // Axe violations fail the story's test, not just the panel. Frames hold generated apps, not our components.
    a11y: { test: 'error', options: { iframes: false } },
    controls: { expanded: true },
  },
} satisfies Preview;

export default preview;
