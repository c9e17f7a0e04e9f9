// Drives code-server in headless Chromium (puppeteer-core, the system's
// Chromium) for scripts/code_server_e2e.sh: opens a PTX file and waits for
// what the ptxopt extension should show: an error squiggle (diagnostics),
// a code lens ("max live R ... occupancy ..."), inlay hints ("max R n P m")
// and a hover over an instruction ("live"). Writes a screenshot and prints one
// line per check; exit status 1 when one fails.
//
// Usage: node code_server_e2e.mjs URL FILE_NAME SCREENSHOT [CHROMIUM]
import puppeteer from 'puppeteer-core';

const [url, fileName, shot, chromium = '/usr/bin/chromium'] = process.argv.slice(2);
const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--window-size=1400,900'],
  defaultViewport: { width: 1400, height: 900 },
});
const page = await browser.newPage();
const consoleErrors = [];
page.on('console', m => { if (m.type() === 'error') consoleErrors.push(m.text()); });
const results = {};
const check = async (name, fn, timeout = 60000) => {
  try {
    await fn(timeout);
    results[name] = 'ok';
  } catch (e) {
    results[name] = 'FAILED: ' + String(e.message || e).split('\n')[0];
  }
  console.log(name + ': ' + results[name]);
};
try {
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 120000 });
  await check('workbench', t => page.waitForSelector('.monaco-workbench', { timeout: t }), 120000);
  // Quick Open (Ctrl+P), the file's name, Enter.
  await new Promise(r => setTimeout(r, 3000));
  await page.keyboard.down('Control'); await page.keyboard.press('KeyP'); await page.keyboard.up('Control');
  await page.waitForSelector('.quick-input-widget input', { timeout: 30000 });
  await page.keyboard.type(fileName, { delay: 30 });
  // Enter only once the file is listed (the list fills asynchronously).
  await page.waitForFunction(name => [...document.querySelectorAll('.quick-input-list .monaco-list-row')]
    .some(r => r.textContent.includes(name)), { timeout: 30000 }, fileName);
  await new Promise(r => setTimeout(r, 500));
  await page.keyboard.press('Enter');
  await check('editor', t => page.waitForSelector('.monaco-editor .view-lines', { timeout: t }));
  await check('diagnostics', t => page.waitForSelector('.squiggly-error', { timeout: t }), 90000);
  await check('code lens', t => page.waitForFunction(
    () => [...document.querySelectorAll('.codelens-decoration')].some(e => /max live R/.test(e.textContent)), { timeout: t }));
  await check('inlay hints', t => page.waitForFunction(
    () => /max\s+R\s+\d+\s+P\s+\d+/.test(document.querySelector('.monaco-editor .view-lines')?.textContent || ''), { timeout: t }));
  await check('hover', async t => {
    // Hover the first instruction line's opcode: the line with `ld.param`.
    const box = await page.evaluate(() => {
      const line = [...document.querySelectorAll('.monaco-editor .view-line')].find(l => /ld\.param|mov\.|add\./.test(l.textContent));
      if (!line) return null;
      // The opcode's first token (the grammar splits `ld.param.u32`).
      const span = [...line.querySelectorAll('span span')].find(s => /^(ld|mov|add)\b/.test(s.textContent));
      if (!span) return null;
      const r = span.getBoundingClientRect();
      return { x: r.x + Math.min(8, r.width / 2), y: r.y + r.height / 2 };
    });
    if (!box) throw new Error('no instruction line visible');
    // Mouse hover, then the keyboard's Show Hover (Ctrl+K Ctrl+I) at the
    // clicked position if the mouse alone did not open it.
    await page.mouse.click(box.x, box.y);
    await page.mouse.move(box.x + 2, box.y, { steps: 5 });
    const shown = () => page.waitForFunction(() => {
      // Several hover widgets exist (some hidden); any visible one with text.
      return [...document.querySelectorAll('.monaco-hover')].some(h => h.getClientRects().length > 0
        && getComputedStyle(h).visibility !== 'hidden' && /Load a register|live/.test(h.textContent));
    }, { timeout: t / 2 });
    try {
      await shown();
    } catch {
      await page.keyboard.down('Control'); await page.keyboard.press('KeyK'); await page.keyboard.press('KeyI'); await page.keyboard.up('Control');
      await shown();
    }

    results.hover_text = await page.evaluate(() => [...document.querySelectorAll('.monaco-hover')]
      .map(h => h.textContent).find(t => /Load a register|live/.test(t)).slice(0, 200));
    console.log('hover text: ' + results.hover_text);
  });
} catch (e) {
  console.log('error: ' + e.message);
  results.error = e.message;
} finally {
  await page.screenshot({ path: shot }).catch(() => {});
  console.log('screenshot: ' + shot);
  console.log('console errors: ' + consoleErrors.length + (consoleErrors.length ? ' (first: ' + consoleErrors[0].slice(0, 160) + ')' : ''));
  await browser.close();
}
const failed = ['workbench', 'editor', 'diagnostics', 'code lens', 'inlay hints', 'hover'].filter(k => results[k] !== 'ok');
console.log(failed.length ? 'FAILED: ' + failed.join(', ') : 'all checks passed');
process.exit(failed.length ? 1 : 0);
