'use strict';
// No secret leaves the plugin (issue 42, item 2), end to end with the real Shell and the real server:
// masked loads with maskKey (masks while loading, a mask by UPDATE after it, and one with the key
// held only for the UPDATE) and one with a random key, with every channel the server records on —
// the general log (TABLE and FILE), the slow log (long_query_time 0, TABLE and FILE), performance_
// schema's statement tables (current, history, history_long, the digests' samples), the processlist
// (polled while the loads run), the binary log (binlog_format MIXED, so a statement event would carry
// the key: read with the bundle's mysqlbinlog -v, and the files' bytes) — then the printed output, the
// JSON report, every file in the Shell's config home (mysqlsh.log, the plugin's state, progress, view
// and cache files, read while the loads run too); plans, dry runs and refusals with every secret
// option set. Every global set here is put back.
const fs = require('fs');
const path = require('path');
const { spawn, spawnSync } = require('child_process');
const { expect } = require('chai');
const { MYSQLSH } = require('../support/real');
const { cli, runJs, installPlugin, shellEnv } = require('../support/shell');
const { snapshotFixture } = require('../support/snapshot-fixture');

const SRC = 'sec_src';
const KEY = 'Team-Kéy-42-secret';
const TOKEN = 'sv=2026-01-01&ss=b&srt=co&sp=rl&se=2027-01-01&sig=U2VjcmV0U2lnbmF0dXJlNDI';
const MASKS = `${SRC}.customers.email:email,${SRC}.orders.note:text,${SRC}.customers.code:hash`;
const SEED = `
CREATE SCHEMA ${SRC};
CREATE TABLE ${SRC}.customers (id INT PRIMARY KEY, code VARCHAR(12) NOT NULL UNIQUE, email VARCHAR(60) NOT NULL UNIQUE,
  pad VARCHAR(100) NOT NULL);
CREATE TABLE ${SRC}.orders (id INT PRIMARY KEY, customer_code VARCHAR(12) NOT NULL, note TEXT NULL, pad VARCHAR(100) NOT NULL,
  FOREIGN KEY (customer_code) REFERENCES customers (code));
SET SESSION cte_max_recursion_depth = 10000;
INSERT INTO ${SRC}.customers WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1500)
  SELECT i, CONCAT('C', LPAD(i, 6, '0')), CONCAT('person', i, '@corp.test'), REPEAT('c', 90) FROM n;
INSERT INTO ${SRC}.orders WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
  SELECT i, CONCAT('C', LPAD(1 + i % 1500, 6, '0')), CONCAT('deliver to door ', i), REPEAT('o', 90) FROM n;
`;

// Every spelling of the key a channel could show: as text, its UTF-8 bytes in hex and base64.
const KEY_FORMS = [KEY, Buffer.from(KEY).toString('hex'), Buffer.from(KEY).toString('hex').toUpperCase(),
  Buffer.from(KEY).toString('base64'), 'Team-K'];
const TOKEN_FORMS = ['U2VjcmV0U2lnbmF0dXJlNDI', 'sig='];
// The only statements that may name the key's variable: none carries a key.
const ALLOWED = [/SET @restore_mask_key = HEX\(RANDOM_BYTES\(32\)\)/, /SET @restore_mask_key = NULL/,
  /SET @restore_mask_key = @restore_mask_pad \^ X'[0-9A-F]+'/, /SET @restore_mask_key = \(SELECT VARIABLE_VALUE FROM performance_schema\.user_variables_by_thread WHERE THREAD_ID = \d+ AND VARIABLE_NAME = 'restore_mask_key'\)/,
  /CAST\(@restore_mask_key AS BINARY\)/, /^  Masks' key: .*held in @restore_mask_key of this session/];

// text: as read (UTF-8), or bytes read as latin1: each form is looked for in both spellings.
function leaks(where, text, forms) {
  const found = forms.filter((k) => text.includes(k) || text.includes(Buffer.from(k).toString('latin1')));
  expect(found, `${where} shows the secret`).to.deep.equal([]);
}

function keyStatements(text) {
  return text.split(/\r?\n/).filter((l) => /restore_mask_key/.test(l)).filter((l) => !ALLOWED.some((re) => re.test(l)));
}

// Every file under dir (the config home's plugins/ folder, the plugin's own code, left out).
function walk(dir, top = true) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (top && e.name === 'plugins') return [];
    return e.isDirectory() ? walk(p, false) : e.isFile() ? [p] : [];
  });
}

describe('secrets: no channel shows the masks\' key or a credential (real Shell, real MySQL)', function () {
  this.timeout(600000);
  const fx = snapshotFixture([{ schema: SRC, seed: SEED }]);
  const { target, count } = fx;
  let server;
  let dump;
  let home;
  let saved;
  const seen = { processlist: new Set(), homeFiles: new Map() };

  before(async function () {
    server = fx.server;
    dump = fx.dumps[SRC];
    home = installPlugin();
    saved = {
      globals: await server.query('SELECT @@GLOBAL.general_log AS general_log, @@GLOBAL.log_output AS log_output, ' +
        '@@GLOBAL.slow_query_log AS slow_query_log, @@GLOBAL.long_query_time AS long_query_time, @@GLOBAL.binlog_format AS binlog_format')
        .then((r) => r[0]),
      consumers: await server.query("SELECT NAME, ENABLED FROM performance_schema.setup_consumers WHERE NAME LIKE 'events_statements%' " +
        "OR NAME = 'statements_digest'"),
    };
    await server.query("SET GLOBAL log_output = 'TABLE,FILE', GLOBAL general_log = ON, GLOBAL slow_query_log = ON, " +
      "GLOBAL long_query_time = 0, GLOBAL binlog_format = 'MIXED'");
    await server.query("UPDATE performance_schema.setup_consumers SET ENABLED = 'YES' WHERE NAME LIKE 'events_statements%' OR " +
      "NAME = 'statements_digest'");
  });

  after(async function () {
    if (!saved) return;
    const g = saved.globals;
    await server.query(`SET GLOBAL general_log = ${Number(g.general_log)}, GLOBAL slow_query_log = ${Number(g.slow_query_log)}, ` +
      'GLOBAL log_output = ?, GLOBAL long_query_time = ?, GLOBAL binlog_format = ?', [g.log_output, g.long_query_time, g.binlog_format]);
    for (const c of saved.consumers) {
      await server.query('UPDATE performance_schema.setup_consumers SET ENABLED = ? WHERE NAME = ?', [c.ENABLED, c.NAME]);
    }
  });

  // `mysqlsh -- restore load …` in the background, the processlist and the config home read meanwhile.
  async function loadWatched(args) {
    const child = spawn(MYSQLSH, [server.uri, '--', 'restore', 'load', ...args], { env: shellEnv({ configHome: home }),
      stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const done = new Promise((resolve) => child.on('close', (code) => resolve(code)));
    let status = null;
    done.then((c) => { status = c; });
    for (let i = 0; status === null; i++) {
      for (const r of await server.query('SELECT INFO FROM performance_schema.processlist WHERE INFO IS NOT NULL')) {
        seen.processlist.add(String(r.INFO));
      }
      if (i % 10 === 0) {
        for (const f of walk(home)) {
          try { seen.homeFiles.set(f + '#' + i, fs.readFileSync(f, 'latin1')); } catch (e) { /* gone meanwhile */ }
        }
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    return { status, stdout, stderr, out: stdout + stderr };
  }

  // First: the transactions after the fixture's dump are then this test's own (the replay plan quotes the first it cannot place).
  it('addresses with a password or a token, and the account statements of binary logs, are never shown, given to a program or written', async function () {
    const RPL = 'p@ss/Rpl-Secret-61'; // @ and /: a live server's password up to the last @
    const PW = ['Rpl-Secret-61', 'Daemon-Secret-62', 'Ssh-Secret-63', 'NoPort-Secret-64', 'PARtoken-Secret-65'];
    const par = (tail) => `https://127.0.0.1:1/p/PARtoken-Secret-65/n/ns/b/bk/o/${tail}/`;
    // rsync and ssh as the plugin would start them: each call's arguments recorded (any local user reads them in /proc).
    const bin = fs.mkdtempSync(path.join(home, 'bin-'));
    const calls = path.join(bin, 'calls.log');
    for (const p of ['rsync', 'ssh']) fs.writeFileSync(path.join(bin, p), `#!/bin/sh\necho "${p} $*" >> ${calls}\nexit 255\n`, { mode: 0o755 });
    const bundle = path.dirname(server.client.trim().split(/\s+/)[0]); // mysqlbinlog
    const env = { PATH: `${bin}:${bundle}:${process.env.PATH}` };
    await server.query(`CREATE USER 'sec_rpl'@'127.0.0.1' IDENTIFIED BY '${RPL.replace(/'/g, "''")}'`);
    try {
      await server.query("GRANT REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO 'sec_rpl'@'127.0.0.1'");
      const hash = String(await server.value("SELECT authentication_string FROM mysql.user WHERE user = 'sec_rpl'"));
      const refusal = (uri, args, code) => {
        const r = cli(uri, [...args, '--output-format=json'], { configHome: home, env });
        expect(r.status, r.out).to.equal(1);
        const e = JSON.parse(r.stdout).error;
        expect(e.code, r.out).to.equal(code);
        return r.out;
      };
      const said = [
        // A live server whose password holds @ and /, read by mysqlbinlog. Its binary logs are the target's own (this server):
        // the transactions after the dump (the CREATE USER with its hash, the GRANT) are on it already, and the plan says so
        // without the password or the hash (account statements replay now: none is quoted; secrets.statement hides them where
        // a filtered replay quotes one, test/unit/secrets.test.js).
        refusal(server.uri, ['load', dump, `--schema=${target('sec_e')}`, `--binlogs=sec_rpl:${RPL}@127.0.0.1:${server.port}`, '--dry-run'],
          'TARGET_CHANGED'),
        refusal(null, ['binlogs', `mysql://sec_rpl:${RPL}@127.0.0.1:1`], 'BINLOG_SOURCE_UNREACHABLE'),
        refusal(null, ['binlogs', 'sec_rpl:NoPort-Secret-64@127.0.0.1'], 'REMOTE_ADDRESS_INVALID'),
        refusal(null, ['plan', 'rsync://bk:Daemon-Secret-62@127.0.0.1:1/mod/dump', '--latest=sec_src.orders:1'], 'REMOTE_ADDRESS_INVALID'),
        refusal(null, ['plan', 'bk:Ssh-Secret-63@127.0.0.1:/dumps/x', '--latest=sec_src.orders:1'], 'REMOTE_ADDRESS_INVALID'),
        refusal(null, ['plan', par('nightly'), '--latest=sec_src.orders:1'], 'REMOTE_ADDRESS_INVALID'),
        refusal(null, ['inspect', par('nightly')], 'REMOTE_ADDRESS_INVALID'),
      ];
      expect(said[0]).to.include('the target holds this replay already');
      expect(said[1]).to.include('sec_rpl@127.0.0.1:1');
      expect(said[3]).to.include('rsync://bk:(set, not shown)@127.0.0.1:1/mod/dump').and.include('RSYNC_PASSWORD');
      expect(said[5]).to.include('/p/(set, not shown)/');
      // restore.dump to a pre-authenticated request URL: its printed call and what it says and returns, without the token.
      const dumped = runJs(server.uri, `restore.dump(${JSON.stringify(par('out'))}, {schemas: ['${SRC}'], showProgress: false})`,
        { configHome: home, env });
      said.push(dumped.out + JSON.stringify(dumped.error));
      expect(dumped.out).to.include(`util.dumpSchemas(["${SRC}"], "https://127.0.0.1:1/p/(set, not shown)/n/ns/b/bk/o/out/", `);
      expect(fs.existsSync(calls), 'rsync or ssh started for these addresses').to.equal(false);
      // What the plugin made (the binlogs' cache here; views, state, progress files alike) is as private as a dump the Shell writes.
      const open = (dir) => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
        const p = path.join(dir, e.name);
        const mine = (fs.lstatSync(p).mode & 0o007) ? [`${p} ${(fs.lstatSync(p).mode & 0o777).toString(8)}`] : [];
        return e.isDirectory() ? mine.concat(open(p)) : e.isSymbolicLink() ? [] : mine;
      });
      expect(open(path.join(home, 'restore')), 'readable by every local user').to.deep.equal([]);
      const files = walk(home).filter((f) => !f.startsWith(bin));
      // The hash as a binary log may spell it: its runs of letters and digits, its bytes in hex.
      const hex = Buffer.from(hash.slice(7), 'latin1').toString('hex');
      const hashForms = (hash.slice(7).match(/[A-Za-z0-9]{6,}/g) || []).concat([hex.slice(0, 40), hex.slice(0, 40).toUpperCase()]);
      // Copies of the source's binary logs hold its statements as they are (as the dump's @.users.sql does): their names only.
      const binlogs = files.filter((f) => /\/binlog\.\d+$/.test(f));
      expect(binlogs).to.have.length.above(0);
      const texts = files.filter((f) => binlogs.indexOf(f) < 0).map((f) => fs.readFileSync(f, 'latin1'));
      for (const t of said.concat(files, texts)) {
        leaks('an address\'s refusal, a plan, restore.dump, a file in the config home or its name', t, PW.concat(hashForms));
      }
    } finally {
      await server.query("DROP USER IF EXISTS 'sec_rpl'@'127.0.0.1'");
    }
  });

  it('masked loads (maskKey, a random key): the key is in no log, statement table, processlist, binary log, output or file', async function () {
    const binlogsBefore = (await server.query('SHOW BINARY LOGS')).map((r) => r.Log_name);
    // 1. maskKey, masks while loading and an UPDATE after it (customers.code: a foreign key links it).
    const a = await loadWatched([dump, `--mask=${MASKS}`, `--mask-key=${KEY}`, `--schema=${target('sec_a')}`]);
    expect(a.status, a.out).to.equal(0);
    expect(a.stdout).to.match(/Masks while loading \(LOAD DATA writes the masked value, key: maskKey\)/);
    expect(a.stdout).to.match(/Masks after the load \(UPDATE, key: maskKey\): sec_src\.customers\.code hash/);
    expect(a.stdout).to.match(/Masks' key: maskKey, sent XOR a one-time pad the server made: in no statement text .*the binary log: the sessions that use it write row events/);
    // 2. maskKey held only for the UPDATE (no mask while loading), the report as JSON.
    const b = await loadWatched([dump, `--mask=${SRC}.customers.code:hash`, `--mask-key=${KEY}`, `--schema=${target('sec_b')}`,
      '--output-format=json']);
    expect(b.status, b.out).to.equal(0);
    const report = JSON.parse(b.stdout);
    expect(report.snapshot.mask.keySource).to.equal('maskKey');
    // 3. A random key made on the server.
    const c = await loadWatched([dump, `--mask=${MASKS}`, `--schema=${target('sec_c')}`]);
    expect(c.status, c.out).to.equal(0);
    expect(c.stdout).to.match(/Masks' key: random, made on the server/);

    // The server's records.
    const rows = async (sql) => (await server.query(sql)).map((r) => Object.values(r).map((v) => Buffer.isBuffer(v) ? v.toString('latin1') : String(v)).join('\t')).join('\n');
    const channels = {
      'mysql.general_log': await rows('SELECT argument FROM mysql.general_log'),
      'mysql.slow_log': await rows('SELECT sql_text FROM mysql.slow_log'),
      'general log file': fs.readFileSync(await server.value('SELECT @@GLOBAL.general_log_file'), 'latin1'),
      'slow log file': fs.readFileSync(await server.value('SELECT @@GLOBAL.slow_query_log_file'), 'latin1'),
      events_statements_current: await rows('SELECT SQL_TEXT FROM performance_schema.events_statements_current'),
      events_statements_history: await rows('SELECT SQL_TEXT FROM performance_schema.events_statements_history'),
      events_statements_history_long: await rows('SELECT SQL_TEXT FROM performance_schema.events_statements_history_long'),
      'digests: DIGEST_TEXT, QUERY_SAMPLE_TEXT': await rows('SELECT DIGEST_TEXT, QUERY_SAMPLE_TEXT FROM ' +
        'performance_schema.events_statements_summary_by_digest'),
      processlist: [...seen.processlist].join('\n'),
    };
    // The loads were recorded (the channels were on): the pad's statement is in each log.
    for (const k of ['mysql.general_log', 'general log file', 'mysql.slow_log', 'slow log file', 'events_statements_history_long']) {
      expect(channels[k], k).to.match(/SET @restore_mask_key = @restore_mask_pad \^ X'/);
    }
    expect(channels.processlist).to.match(/LOAD DATA/);
    const dir = path.dirname(server.client.trim().split(/\s+/)[0]);
    const binlogs = (await server.query('SHOW BINARY LOGS')).map((r) => r.Log_name).filter((n) => binlogsBefore.indexOf(n) < 0 ||
      n === binlogsBefore[binlogsBefore.length - 1]);
    const base = path.dirname(await server.value('SELECT @@GLOBAL.log_bin_basename'));
    const decoded = spawnSync(path.join(dir, 'mysqlbinlog'), ['-v', ...binlogs.map((n) => path.join(base, n))],
      { encoding: 'latin1', maxBuffer: 1 << 30 });
    expect(decoded.status, decoded.stderr).to.equal(0);
    channels['binary log (mysqlbinlog -v)'] = decoded.stdout;
    channels['binary log files'] = binlogs.map((n) => fs.readFileSync(path.join(base, n), 'latin1')).join('');
    // Row events only for what used the key: the masked values are there, decoded, and no user variable is.
    expect(decoded.stdout).to.match(/### INSERT INTO `sec_a`\.`customers`/);
    expect(decoded.stdout).to.not.match(/User_var|SET @`restore_mask_key`/);
    channels['printed output'] = a.out + b.out + c.out;
    for (const [f, text] of walk(home).map((p) => [p, fs.readFileSync(p, 'latin1')]).concat([...seen.homeFiles])) {
      channels[`config home file ${f}`] = text;
    }
    expect(Object.keys(channels).some((k) => /mysqlsh\.log/.test(k))).to.equal(true);
    for (const [where, text] of Object.entries(channels)) {
      leaks(where, text, KEY_FORMS);
      expect(keyStatements(text), `${where}: a statement naming the key's variable`).to.deep.equal([]);
    }

    // (After the channels were read: these statements of the test's own name the key.)
    // The masks are those of the key's UTF-8 bytes, as before (SHA2(key 0x00 value)), written here independently.
    const h = (v) => `SHA2(CONCAT(CAST(CONVERT(X'${Buffer.from(KEY).toString('hex')}' USING utf8mb4) AS BINARY), 0x00, CAST(${v} AS BINARY)), 256)`;
    for (const m of ['sec_a', 'sec_b']) {
      expect(await count(`SELECT COUNT(*) FROM ${m}.customers x JOIN ${SRC}.customers s ON s.id = x.id WHERE x.code = LEFT(${h('s.code')}, 12)`),
        `${m}.customers.code`).to.equal(1500);
    }
    expect(await count(`SELECT COUNT(*) FROM sec_a.customers x JOIN ${SRC}.customers s ON s.id = x.id WHERE ` +
      `x.email = CONCAT('user_', LEFT(${h('s.email')}, 16), '@example.com')`)).to.equal(1500);
    // A known input: hash of 'C000001' under this key, as the previous version computed it.
    expect(await server.value("SELECT code FROM sec_a.customers WHERE id = 1")).to.equal(
      require('crypto').createHash('sha256').update(Buffer.concat([Buffer.from(KEY), Buffer.from([0]), Buffer.from('C000001')]))
        .digest('hex').slice(0, 12));
    expect(await count('SELECT COUNT(*) FROM sec_a.orders x JOIN sec_a.customers p ON p.code = x.customer_code')).to.equal(3000);
    expect(await count('SELECT COUNT(*) FROM sec_c.customers x JOIN sec_src.customers s ON s.id = x.id WHERE x.email = s.email'))
      .to.equal(0);
  });

  it('dry runs, plans and refusals with every secret option set show none of them', async function () {
    const before = await count("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'sec_d'");
    const secretOptions = `maskKey: ${JSON.stringify(KEY)}, azureStorageSasToken: ${JSON.stringify(TOKEN)}`;
    const dry = runJs(server.uri, `restore.load(${JSON.stringify(dump)}, {dryRun: true, mask: ${JSON.stringify(MASKS)}, schema: 'sec_d', ` +
      `${secretOptions}, outputFormat: 'none'})`, { configHome: home });
    expect(dry.error, dry.out).to.equal(null);
    expect(dry.value.loadDumpOptions.azureStorageSasToken).to.equal('(set, not shown)');
    const text = cli(server.uri, ['load', dump, '--dry-run', `--mask=${MASKS}`, '--schema=sec_d', `--mask-key=${KEY}`,
      `--azure-storage-sas-token=${TOKEN}`], { configHome: home });
    expect(text.status, text.out).to.equal(0);
    expect(text.stdout).to.match(/util\.loadDump options: .*"azureStorageSasToken":"\(set, not shown\)"/);
    expect(text.stdout).to.match(/restore\.load options: .*maskKey: \(set, not shown\)/);
    expect(text.stdout).to.match(/WARNING: azureStorageSasToken: util\.loadDump writes its options into the Shell's log \(.*mysqlsh\.log\).*AZURE_STORAGE_SAS_TOKEN/);
    const json = cli(server.uri, ['load', dump, '--dry-run', `--mask=${MASKS}`, '--schema=sec_d', `--mask-key=${KEY}`,
      `--azure-storage-sas-token=${TOKEN}`, '--output-format=json'], { configHome: home });
    expect(JSON.parse(json.stdout).loadDumpOptions.azureStorageSasToken).to.equal('(set, not shown)');
    // The load itself is refused before anything changes: util.loadDump would log the token.
    const refused = cli(server.uri, ['load', dump, `--mask=${MASKS}`, '--schema=sec_d', `--mask-key=${KEY}`,
      `--azure-storage-sas-token=${TOKEN}`, '--output-format=json'], { configHome: home });
    expect(refused.status).to.not.equal(0);
    expect(JSON.parse(refused.stdout).error.code).to.equal('LOAD_BLOCKED');
    expect(await count("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'sec_d'")).to.equal(before);
    // restore.dump refuses it too; a wrong value of a secret option and an option a member does not take.
    const dumped = runJs(server.uri, `restore.dump(${JSON.stringify(path.join(home, 'never'))}, {schemas: ['${SRC}'], ` +
      `azureContainerName: 'c', azureStorageSasToken: ${JSON.stringify(TOKEN)}})`, { configHome: home });
    expect(dumped.error.message).to.match(/azureStorageSasToken: util\.dumpSchemas writes its options into the Shell's log/);
    const wrong = runJs(server.uri, `restore.load(${JSON.stringify(dump)}, {dryRun: true, maskKey: 424242424242})`, { configHome: home });
    expect(wrong.error).to.not.equal(null);
    const plan = runJs(server.uri, `restore.plan(${JSON.stringify(dump)}, {maskKey: ${JSON.stringify(KEY)}})`, { configHome: home });
    expect(plan.error).to.not.equal(null);
    const all = [dry, text, json, refused, dumped, wrong, plan].map((r) => r.out + JSON.stringify(r.error || null) + JSON.stringify(r.value || null));
    const files = walk(home).map((p) => fs.readFileSync(p, 'latin1'));
    for (const t of all.concat(files)) {
      leaks('a dry run, plan or refusal', t, KEY_FORMS.concat(TOKEN_FORMS, ['424242424242']));
    }
  });
});
