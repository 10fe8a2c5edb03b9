import type { StorybookConfig } from '@storybook/react-vite';
import { entryAliases } from '../vite.config.ts';

const config: StorybookConfig = {
  framework: '@storybook/react-vite',
  stories: ['../stories/**/*.stories.tsx'],
  // Docs pages for every component (props, labels, states); the stories run as tests in Chromium (addon-vitest).
  addons: ['@storybook/addon-a11y', '@storybook/addon-docs', '@storybook/addon-vitest'],
  // The stand-in page of generated apps (app_url of the stories' mock).
  staticDirs: ['./public'],
  core: { disableTelemetry: true },
  // A designer's Storybook: no "Get started" checklist in the sidebar, no onboarding guide in the menu.
  features: { sidebarOnboardingChecklist: false, menuOnboardingChecklist: false },
  // Props tables with the real types (`'build' | 'design'`, not "union"), read through TypeScript itself;
  // props inherited from React's HTML attributes stay out of them.
  typescript: {
    reactDocgen: 'react-docgen-typescript',
    reactDocgenTypescriptOptions: {
      shouldExtractLiteralValuesFromEnum: true,
      shouldRemoveUndefinedFromOptional: true,
      propFilter: (prop) => !/node_modules/.test(prop.parent?.fileName ?? ''),
    },
  },
  async viteFinal(viteConfig) {
    viteConfig.resolve = { ...viteConfig.resolve, alias: entryAliases };
    viteConfig.optimizeDeps = {
      ...viteConfig.optimizeDeps,
      include: [
        ...(viteConfig.optimizeDeps?.include ?? []),
        'react',
        'react-dom',
        'react/jsx-runtime',
        'react/jsx-dev-runtime',
      ],
    };
    // Library-mode settings of vite.config.ts do not apply to the Storybook site.
    if (viteConfig.build) {
      delete viteConfig.build.lib;
      viteConfig.build.rollupOptions = {
        onwarn(warning, warn) {
          if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
        },
      };
    }
    viteConfig.plugins = (viteConfig.plugins ?? []).filter(
      (plugin) =>
        !(plugin && typeof plugin === 'object' && 'name' in plugin && plugin.name === 'agent-embed-stylesheet'),
    );
    return viteConfig;
  },
};

export default config;
