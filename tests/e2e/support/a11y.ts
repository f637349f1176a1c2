// axe-core over the current page with the WCAG 2.0/2.1 A and AA rules; returns the serious and
// critical violations as readable lines (rule, impact, element, what to fix) for the failure
// message, so a failing run says exactly what to change.
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

export async function seriousViolations(page: Page): Promise<string[]> {
  await animationsFinished(page);
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) =>
      violation.nodes.map((node) => {
        const fix = node.failureSummary?.split('\n').slice(1).join(' ').trim() ?? '';
        return [
          `${violation.id} (${violation.impact}) at ${node.target.join(' ')}`,
          `  ${violation.help}: ${fix}`,
          `  ${node.html.slice(0, 200)}`,
        ].join('\n');
      }),
    );
}

/**
 * Waits for every finite CSS/Web animation on the page (a dialog fading in, a toast sliding) to end:
 * axe reads the colours as painted, and a half-faded button measures a contrast it never has.
 */
async function animationsFinished(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}
