'use strict';
// Interactive use as a person sees it: the real mysqlsh at its JS prompt in a terminal (tmux),
// restore.inspect(…) and restore.load(…) typed in, the screen read back. What matters: the
// report, then the prompt again, and no dictionary printed after the report.
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const { needs, skipBecause, MYSQLSH, SAMPLE_SHOP } = require('../support/real');
const { installPlugin, tempDir, copyDump } = require('../support/shell');
const { suiteServer } = require('../support/root-hooks');
const { HAVE_TMUX, terminal, waitForPrompt, answerTo } = require('../support/terminal');


describe('restore at the interactive prompt (real Shell in a terminal)', function () {
  let term;
  let server;
  beforeEach(function () {
    needs(this, ['shell', 'server']);
    if (!HAVE_TMUX) skipBecause(this, 'they need tmux (an interactive terminal)');
    server = suiteServer();
  });
  afterEach(async function () {
    if (term) term.kill();
    term = null;
    if (server) await server.query('DROP SCHEMA IF EXISTS shop');
  });

  it('shows the inspect report and the load report, and no dictionary after them', async function () {
    const home = installPlugin(tempDir('restore-cfg-')); // mysqlsh's history and options go here too
    const dump = copyDump(SAMPLE_SHOP, 'shop');
    const chunk = (f) => Number(/@@?(\d+)\.tsv\.zst$/.exec(f)[1]);
    const orders = fs.readdirSync(dump).filter((f) => /^shop@orders@@?\d+\.tsv\.zst$/.test(f)).sort((a, b) => chunk(a) - chunk(b));
    orders.slice(0, -2).forEach((f) => fs.rmSync(path.join(dump, f))); // only the newest 2 chunks were fetched

    term = terminal(`env MYSQLSH_USER_CONFIG_HOME=${home} MYSQLSH_TERM_COLOR_MODE=nocolor ${MYSQLSH} --js ${server.uri}`);
    waitForPrompt(term, 1);

    term.type(`restore.inspect('${dump}')`);
    let screen = waitForPrompt(term, 2);
    const inspect = answerTo(screen, 1);
    expect(inspect).to.match(/^shop\.orders +2\/12 +0 +10 /m);
    expect(inspect).to.match(/Verdict: util\.loadDump would fail: 10 data file\(s\) missing\.\s*$/);
    expect(inspect).to.not.match(/^\s*[{}]/m);

    term.type(`restore.load('${dump}', {preset: 'dev', latest: {'shop.orders': 2}})`);
    screen = waitForPrompt(term, 3);
    const load = answerTo(screen, 2);
    expect(load).to.match(/^restore\.load report for .*shop:$/m);
    expect(load).to.match(/^ {2}shop\.orders +2000 +as loaded$/m);
    expect(load).to.match(/^InnoDB redo log: before ON, after ON$/m);
    const tail = load.trimEnd().split('\n').slice(-2);
    expect(tail[0]).to.equal('Stubbed (not loaded): shop.orders 10 chunk(s).');
    expect(tail[1]).to.match(/^Load view removed: .*\/restore\/views\/shop-[0-9a-f]{8}\.$/);
    expect(load).to.not.match(/^\s*[{}]/m);
    expect(Number(await server.value('SELECT COUNT(*) FROM shop.orders'))).to.equal(2000);
    term.type('\\quit');
  });
});
