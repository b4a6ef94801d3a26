'use strict';
// A load killed the hard way: the mysqlsh running `restore load` SIGKILLed once the server runs
// its LOAD DATA (what a crash, an OOM kill or a closed terminal leaves).
const { expect } = require('chai');
const { spawnShell } = require('./shell');

// Starts `restore load` in a background mysqlsh and SIGKILLs it once the server runs its LOAD DATA
// (opts.after: once mysqlsh has printed that text too, e.g. a later util.loadDump call's line).
async function killMidLoad(server, dir, args, opts = {}) {
  const child = spawnShell([server.uri, '--', 'restore', 'load', dir, ...args], opts);
  let out = '';
  child.stdout.on('data', (d) => { out += d; });
  child.stderr.on('data', (d) => { out += d; });
  const exited = new Promise((r) => child.once('exit', (code, signal) => r({ code, signal })));
  const until = Date.now() + (opts.within || 60000);
  let seen = false;
  while (!seen && Date.now() < until) {
    if (opts.after && !out.includes(opts.after)) { await new Promise((r) => setTimeout(r, 50)); continue; }
    const rows = await server.query("SELECT ID, INFO FROM information_schema.PROCESSLIST WHERE INFO IS NOT NULL");
    // util.loadDump prefixes its statements with a comment: /* mysqlsh loadDump(), thread 2, … */ LOAD DATA …
    if (rows.some((x) => /LOAD DATA/i.test(x.INFO))) seen = true;
    else await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  const end = await exited;
  expect(seen, `no LOAD DATA showed up; mysqlsh said: ${out}`).to.equal(true);
  expect(end.signal, out).to.equal('SIGKILL');
  // The server-side LOAD DATA statements end when they notice their client is gone.
  const gone = Date.now() + 60000;
  while (Date.now() < gone && (await server.query("SELECT ID FROM information_schema.PROCESSLIST WHERE INFO LIKE '%LOAD DATA%' " +
    'AND ID <> CONNECTION_ID()')).length) {
    await new Promise((r) => setTimeout(r, 200));
  }
  return out;
}

module.exports = { killMidLoad };
