/** Debian's Chromium, as every browser suite and script here launches it (TOOLCHAIN.md). */
import { chromium, type Browser } from 'playwright-core';

/** Chromium's flags on this machine: headless, and no background traffic on the closed network. */
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Launches Debian's Chromium (CHROMIUM_PATH overrides /usr/bin/chromium); never a downloaded browser. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs });
}

/** The playground on 127.0.0.1 and a free port, against an instant mock with no rate limits (journeys send more). */
export const scriptedPlaygroundOptions = {
  port: 0,
  host: '127.0.0.1',
  speed: 'instant',
  watch: false,
  logLevel: 'warn',
  mock: { rateLimit: false },
  proxy: { rateLimit: false },
} as const;
