'use strict';
// Issue 26: what the plugin says after a server fault is what the server says. Faults at one
// statement come from test/support/fault-proxy.js (the statement never reaches the server).
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const { needs, skipBecause, SAMPLE_SHOP, shellBundles } = require('../support/real');
const { cli, spawnShell, installPlugin, tempDir, copyDump } = require('../support/shell');
const { suiteServer } = require('../support/root-hooks');
const { startFaultProxy } = require('../support/fault-proxy');

// `mysqlsh URI -- restore <args>` without blocking this process (the proxy runs in it).
function cliAsync(uri, args, opts) {
  const child = spawnShell([uri, '--', 'restore', ...args], opts);
  let out = '';
  child.stdout.on('data', (d) => { out += d; });
  child.stderr.on('data', (d) => { out += d; });
  return new Promise((r) => child.once('exit', (status) => r({ status, out })));
}

// The lines of a report section: from its heading to the next line that is not indented.
function section(out, heading) {
  const lines = out.split('\n');
  const at = lines.findIndex((l) => l.startsWith(heading));
  if (at < 0) return null;
  const rest = lines.slice(at + 1);
  const end = rest.findIndex((l) => !/^\s/.test(l));
  return rest.slice(0, end < 0 ? rest.length : end).join('\n');
}

describe('hostile 26: server faults told truthfully (real Shell, real MySQL)', function () {
  let server;
  let proxy = null;
  let originals;
  const NAMES = ['innodb_flush_log_at_trx_commit', 'sync_binlog', 'innodb_io_capacity', 'innodb_io_capacity_max'];
  beforeEach(async function () {
    needs(this, ['shell', 'server']);
    server = suiteServer();
    originals = await server.variables(NAMES);
    await server.query('DROP SCHEMA IF EXISTS shop');
  });
  afterEach(async function () {
    if (proxy) { await proxy.stop(); proxy = null; }
    if (!server) return;
    if ((await server.redoLog()) === 'OFF') await server.query('ALTER INSTANCE ENABLE INNODB REDO_LOG');
    for (const n of NAMES) await server.query(`SET GLOBAL ${n} = ${originals[n]}`);
    await server.query('DROP SCHEMA IF EXISTS shop');
  });

  it('a fault at the second SET GLOBAL: the report lists only the setting applied, with values read from the server', async function () {
    proxy = await startFaultProxy({ port: server.port }, { pattern: /SET GLOBAL sync_binlog/, code: 1227,
      message: 'Access denied; you need (at least one of) the SUPER or SYSTEM_VARIABLES_ADMIN privilege(s) for this operation' });
    const home = installPlugin(tempDir('restore-cfg-'));
    const r = await cliAsync(proxy.uri(), ['load', copyDump(SAMPLE_SHOP), '--preset=fastest', '--force'], { configHome: home });
    expect(proxy.hits.length, r.out).to.equal(1);
    expect(r.status, r.out).to.equal(1);
    const settings = section(r.out, 'Settings changed for the load:');
    expect(settings, r.out).to.be.a('string');
    expect(settings).to.match(/innodb_flush_log_at_trx_commit +1 +2 +1 \(put back\)/);
    expect(settings).to.not.match(/sync_binlog|innodb_io_capacity/);
    expect(r.out).to.not.match(/NOT PUT BACK|null|undefined/);
    expect(await server.variables(NAMES)).to.deep.equal(originals);
    expect(await server.redoLog()).to.equal('ON');
  });

  // Shell 8.4 has no dropExistingObjects: the plugin drops the objects itself.
  const shell84 = shellBundles().find((b) => /mysqlsh-8\.4\./.test(path.basename(b)));
  for (const [what, fault, expected] of [
    ['the second DROP fails (a lock wait timeout)', { pattern: /DROP TABLE IF EXISTS/, skip: 1, code: 1205,
      message: 'Lock wait timeout exceeded; try restarting transaction' },
    [/1 existing object\(s\) were dropped before the failure: table shop\.\w+\./, /The server no longer has 1 of them/]],
    ['SET SESSION foreign_key_checks fails after the last drop', { pattern: /SET SESSION foreign_key_checks = 1/, code: 2013,
      message: 'Lost connection to MySQL server during query' },
    [/6 existing object\(s\) were dropped before the failure/, /The server no longer has 6 of them/]],
  ]) {
    it(`Shell 8.4, the plugin's own drops: ${what}: every object gone is named, never "Nothing was dropped"`, async function () {
      if (!shell84) skipBecause(this, 'they need a MySQL Shell 8.4 bundle in ../shared/mysqlsh');
      const home = installPlugin(tempDir('restore-cfg-'));
      const dump = copyDump(SAMPLE_SHOP);
      const first = cli(server.uri, ['load', dump, '--preset=safe'], { configHome: home });
      expect(first.status, first.out).to.equal(0);
      proxy = await startFaultProxy({ port: server.port }, fault);
      const r = await cliAsync(proxy.uri(), ['load', dump, '--preset=safe', '--drop-existing', '--force'],
        { configHome: home, bundle: shell84 });
      expect(proxy.hits.length, r.out).to.equal(1);
      expect(r.status, r.out).to.equal(1);
      for (const e of expected) expect(r.out, r.out).to.match(e);
      expect(r.out).to.not.match(/Nothing was dropped/);
      expect(r.out).to.match(/run the same restore\.load again \(with resetProgress: true\)/);
      const left = Number(await server.value("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'shop'"));
      expect(left).to.equal(6 - Number(/no longer has (\d+)/.exec(r.out)[1]));
    });
  }

  it('fastest keeps the redo log on where a crash would cost more than the load; redoLog: "off" given overrides, with a warning', async function () {
    await server.query('CREATE SCHEMA IF NOT EXISTS keepme');
    try {
      const home = installPlugin(tempDir('restore-cfg-'));
      const r = cli(server.uri, ['load', copyDump(SAMPLE_SHOP), '--preset=fastest', '--force'], { configHome: home });
      expect(r.status, r.out).to.equal(0);
      expect(r.out).to.include('InnoDB redo log: ON now: left alone (kept ON although the preset turns it off: the server ' +
        'holds 1 schema(s) outside this load (keepme); a server crash while it is off leaves an instance MySQL will not ' +
        'start again, to be re-initialized and loaded again. Pass redoLog: "off" to disable it anyway)');
      expect(r.out).to.match(/InnoDB redo log: before ON, after ON/).and.not.match(/OFF during the load/);
      await server.query('DROP SCHEMA shop');
      const forced = cli(server.uri, ['load', copyDump(SAMPLE_SHOP), '--preset=fastest', '--force', '--redo-log=off'],
        { configHome: home });
      expect(forced.status, forced.out).to.equal(0);
      expect(forced.out).to.include('WARNING: redoLog: "off" although the server holds 1 schema(s) outside this load (keepme): ' +
        'a server crash during the load leaves an instance MySQL will not start again');
      expect(forced.out).to.match(/InnoDB redo log: before ON, OFF during the load, after ON/);
    } finally {
      await server.query('DROP SCHEMA IF EXISTS keepme');
    }
  });

  it('revert: a recorded setting the server has no variable for is said so; was and now are read from the server', async function () {
    const home = installPlugin(tempDir('restore-cfg-'));
    const uuid = String(await server.value('SELECT @@server_uuid'));
    const io = Number(originals.innodb_io_capacity);
    await server.query(`SET GLOBAL innodb_io_capacity = ${io + 100}`);
    const file = path.join(home, 'restore', 'state', `${uuid}.json`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ format: 1, serverUuid: uuid, server: 'test', createdAt: 'x', updatedAt: 'x',
      redoLog: null, owner: { connectionId: 2147483000, clientHost: 'gone', serverStartedAt: 0 },
      settings: [{ name: 'innodb_io_capacity', original: String(io), value: String(io + 100), by: 'restore.load' },
        { name: 'innodb_no_such_setting', original: '1', value: '2', by: 'restore.load' }] }));
    const r = cli(server.uri, ['revert'], { configHome: home });
    expect(r.status, r.out).to.equal(0);
    expect(r.out).to.match(new RegExp(`innodb_io_capacity +${io + 100} +${io} +put back`));
    expect(r.out).to.include('innodb_no_such_setting (recorded original 1) is not a variable of this server: nothing was run ' +
      'for it, and it was removed from the state file.');
    expect(r.out).to.include('Every recorded setting this server has is back as it was').and.not.include('The server is back as it was');
    expect(Number(await server.value('SELECT @@GLOBAL.innodb_io_capacity'))).to.equal(io);
    expect(fs.existsSync(file)).to.equal(false);
  });
});
