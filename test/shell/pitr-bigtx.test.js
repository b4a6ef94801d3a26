'use strict';
// One large transaction on the applier road (issue 53 item 1, issue 54 item 1): the feed streams its events as it
// reads them, never the whole transaction in mysqlsh. A transaction of about 42 MB (24 MB of 1 KB rows, and one row
// of a 17 MB BLOB: one event above 16 MB, sent as wire packets of 16 MB - 1) replays equal to the source, and
// mysqlsh's peak memory stays within 100 MB of an idle mysqlsh's (the transaction held whole, as before: +259 MB).
// Before it, two compressed transactions, each one TRANSACTION_PAYLOAD event: 5 MB in under 1 MB, and 10 MB in
// over 4 MB (the plan's reader does not read that one whole either). Both are decompressed as they are read and
// sent (binlog_events.inner_stream), never whole. The 1 GB run is `BENCH_LARGE=bigtx npm run bench:pitr`.
const { expect } = require('chai');
const fs = require('fs');
const path = require('path');
const { gtidSourceAndTarget, checksumTables, copyBinlogs } = require('../support/server');
const { runJs, tempDir, installPlugin, shellEnv } = require('../support/shell');
const { needs, MYSQLSH } = require('../support/real');
const { DUMP_ENV, withShellDumper } = require('../support/shell-dumper');
const { runMeasured } = require('../../bench/measure');

const TABLES = ['big.t', 'big.b'];

describe('restore load --binlogs: one transaction of 24 MB, compressed ones of 5 and 10 MB, streamed (real Shell, real servers)', function () {
  this.timeout(300000);
  let source, target, home, dump, folder, expected, gtids, uuid, bigGtid, beforeBig; // eslint-disable-line one-var

  // 1 KB rows: compressed about 9 to 1 (hexadecimal text, repeated), or with random ones about 2 to 1
  const rows = (from, to, pad = 'RPAD(SHA2(n, 256), 1000, SHA2(n + 1, 512))') => 'INSERT INTO big.t WITH RECURSIVE s(n) AS ' +
    `(SELECT ${from} UNION ALL SELECT n + 1 FROM s WHERE n < ${to}) SELECT n, ${pad} FROM s`;

  before(async function () {
    needs(this, ['server', 'shell']);
    ({ source, target, uuid } = await gtidSourceAndTarget());
    home = installPlugin(tempDir('restore-cfg-'));
    await source.query(`CREATE DATABASE big; CREATE TABLE big.t (id BIGINT PRIMARY KEY, pad VARCHAR(1000) CHARACTER SET ascii NOT NULL);
      CREATE TABLE big.b (id INT PRIMARY KEY, data LONGBLOB NOT NULL); INSERT INTO big.t VALUES (0, 'before the dump')`);
    dump = path.join(tempDir('restore-bigtx-'), 'nightly');
    const d = await withShellDumper(source, () => runJs(source.uri, `util.dumpSchemas(['big'], ${JSON.stringify(dump)}, ` +
      '{showProgress: false}); null', { configHome: home, env: DUMP_ENV }));
    expect(d.error, d.out).to.equal(null);
    await source.query('FLUSH BINARY LOGS; SET SESSION cte_max_recursion_depth = 10000; SET SESSION binlog_transaction_compression = ON; BEGIN');
    for (let i = 0; i < 5; i++) await source.query(rows(100001 + i * 1000, 100000 + (i + 1) * 1000));
    await source.query('COMMIT; BEGIN');
    for (let i = 0; i < 10; i++) await source.query(rows(200001 + i * 1000, 200000 + (i + 1) * 1000, 'HEX(RANDOM_BYTES(500))'));
    await source.query('COMMIT; SET SESSION binlog_transaction_compression = OFF; BEGIN');
    beforeBig = await checksumTables(source, TABLES);
    bigGtid = `${uuid}:${Number(/:1-(\d+)$/.exec(String(await source.value('SELECT @@GLOBAL.gtid_executed')))[1]) + 1}`;
    for (let i = 0; i < 24; i++) await source.query(rows(i * 1000 + 1, (i + 1) * 1000));
    await source.query("INSERT INTO big.b VALUES (1, REPEAT(SHA2('blob', 512), 136 * 1024)); COMMIT; FLUSH BINARY LOGS");
    expected = await checksumTables(source, TABLES);
    const dumped = JSON.parse(fs.readFileSync(path.join(dump, '@.json'), 'utf8')).gtidExecuted;
    gtids = String(await source.value('SELECT GTID_SUBTRACT(@@GLOBAL.gtid_executed, ?) AS g', [dumped])); // the replay's
    folder = tempDir('restore-bigtx-binlogs-');
    copyBinlogs(source, folder);
  });

  after(async function () {
    await Promise.all([source, target].filter(Boolean).map((s) => s.stop()));
  });

  async function freshTarget() {
    fs.rmSync(path.join(home, 'restore', 'progress'), { recursive: true, force: true });
    await target.query('DROP DATABASE IF EXISTS big; RESET BINARY LOGS AND GTIDS');
  }

  it('sessions road, up to the 24 MB one: the compressed transactions equal to the source', async function () {
    const r = runMeasured(MYSQLSH, [target.uri, '--', 'restore', 'load', dump, `--binlogs=${folder}`, '--replayWith=sessions',
      `--stopBefore=${bigGtid}`], { env: shellEnv({ configHome: home }) });
    expect(r.status, r.stdout + r.stderr).to.equal(0);
    expect(await checksumTables(target, TABLES)).to.deep.equal(beforeBig);
  });

  it('applier road, all of it: equal to the source; mysqlsh within 100 MB of an idle one', async function () {
    await freshTarget();
    const env = shellEnv({ configHome: home });
    const idle = runMeasured(MYSQLSH, ['--js', '-e', 'null'], { env });
    const r = runMeasured(MYSQLSH, [target.uri, '--', 'restore', 'load', dump, `--binlogs=${folder}`, '--replayWith=applier'], { env });
    expect(r.status, r.stdout + r.stderr).to.equal(0);
    expect(await checksumTables(target, TABLES)).to.deep.equal(expected);
    expect(Number(await target.value('SELECT GTID_SUBSET(?, @@GLOBAL.gtid_executed) AS s', [gtids]))).to.equal(1);
    expect(r.peakMB - idle.peakMB, `mysqlsh peak ${r.peakMB.toFixed(0)} MB, idle ${idle.peakMB.toFixed(0)} MB`).to.be.below(100);
  });
});
