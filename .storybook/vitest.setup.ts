/** Project annotations for the stories run as tests in real Chromium (`npm run test:storybook`): axe included. */
import * as a11yAnnotations from '@storybook/addon-a11y/preview';
import { setProjectAnnotations } from '@storybook/react-vite';
import { beforeAll } from 'vitest';
import previewAnnotations from './preview.js';

const project = setProjectAnnotations([a11yAnnotations, previewAnnotations]);

beforeAll(project.beforeAll);
