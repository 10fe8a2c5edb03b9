/**
 * `npx tsx scripts/locale-screenshots.ts`: the playground's AgentBuilder in German, Japanese and Arabic (right to
 * left) after a generation and a follow-up, in Debian's Chromium at 1280 px and 390 px (light), plus the Arabic
 * build details and Publish sheet, written to docs/screenshots/locale-*.png. Every step is driven by the pack's
 * own words. Japanese needs a CJK font on the system (Debian: fonts-ipafont-gothic), or it shows as empty boxes.
 */
import type { AgentLabels } from 'agent-embed';
import { ar } from 'agent-embed/locales/ar';
import { de } from 'agent-embed/locales/de';
import { ja } from 'agent-embed/locales/ja';
import type { Page } from 'playwright-core';
import { launchChromium, scriptedPlaygroundOptions } from './chromium.ts';
import { startPlayground } from '../playground/server.ts';
import { sessionCookie } from '../playground/users.ts';

const output = (name: string) => new URL(`../docs/screenshots/locale-${name}.png`, import.meta.url).pathname;

/** Prompts as an end user of each language would write them. */
const prompts: Record<string, { first: string; change: string }> = {
  de: {
    first: 'Eine Rezeptsammlung mit Schlagwörtern und Einkaufsliste',
    change: 'Ein dunkles Design und eine Druckansicht',
  },
  ja: { first: 'タグと買い物リストが使えるレシピ帳', change: 'ダークテーマとレシピの印刷画面を追加して' },
  ar: { first: 'دفتر وصفات مع وسوم وقائمة تسوّق', change: 'أضف مظهرًا داكنًا وصفحة طباعة للوصفات' },
};

async function buildAndChange(page: Page, text: AgentLabels, tag: string) {
  await page.getByLabel(text.generatePanel.promptLabel).fill(prompts[tag]!.first);
  await page.getByRole('button', { name: text.generatePanel.submit, exact: true }).click();
  await page.locator('.ae-builder[data-phase="ready"]').waitFor();
  await page.getByLabel(text.generatePanel.followUpPromptLabel).fill(prompts[tag]!.change);
  await page.getByRole('button', { name: text.generatePanel.followUpSubmit, exact: true }).click();
  await page.waitForFunction(() => document.querySelectorAll('.ae-turn[data-outcome="completed"]').length === 2);
}

const playground = await startPlayground(scriptedPlaygroundOptions);
const browser = await launchChromium();

try {
  for (const [tag, text] of [
    ['de', de],
    ['ja', ja],
    ['ar', ar],
  ] as const) {
    for (const width of [1280, 390]) {
      playground.mock?.api.admin.reset();
      const context = await browser.newContext({ colorScheme: 'light', viewport: { width, height: 900 } });
      await context.addCookies([{ name: sessionCookie, value: 'ada', url: playground.url }]);
      const page = await context.newPage();
      await page.goto(`${playground.url}?locale=${tag}`);
      await buildAndChange(page, text, tag);
      if (width < 768) await page.getByRole('tab', { name: text.agentBuilder.tabs.chat }).click();
      await page.evaluate(() => {
        (document.activeElement as HTMLElement | null)?.blur();
        window.scrollTo(0, 0);
      });
      await page.waitForTimeout(500);
      await page.screenshot({ path: output(`${tag}-${width === 1280 ? 'light' : '390'}`), fullPage: width < 768 });
      if (tag === 'ar' && width === 1280) {
        // The sheet opens from the end edge: the left, in Arabic.
        await page.getByRole('button', { name: text.agentBuilder.shipLabel }).click();
        await page.locator('dialog[open]').waitFor();
        await page.waitForTimeout(500);
        await page.screenshot({ path: output('ar-publish') });
        await page.keyboard.press('Escape');
        // Mid-build, the log reads right to left too: the bar fills from the right, paths stay left to right.
        playground.mock?.api.admin.injectFault({ kind: 'pause_after', events: 6 });
        await page.getByLabel(text.generatePanel.followUpPromptLabel).fill('أضف صفحة للأسئلة الشائعة');
        await page.getByRole('button', { name: text.generatePanel.followUpSubmit, exact: true }).click();
        await page.locator('.ae-builder:is([data-phase="provisioning"], [data-phase="generating"])').waitFor();
        const show = page.getByRole('button', { name: text.agentBuilder.showDetails });
        if (await show.isVisible()) await show.click();
        await page.locator('.ae-file').first().waitFor();
        await page.locator('.ae-files').scrollIntoViewIfNeeded();
        await page.waitForTimeout(500);
        await page.screenshot({ path: output('ar-building') });
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
  await playground.close();
}
