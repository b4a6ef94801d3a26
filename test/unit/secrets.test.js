'use strict';
// The one registry of secrets (lib/options/secrets.js) and what asks it: the plan's echoes, the
// returned facts, option errors, restore.dump's printed call, restore.presets; every util.loadDump /
// util.dump* option that looks like a credential is either declared secret or named here as not one;
// the Python companion's bucket keys stay in it; the masks' key never goes to the server in clear.
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const secrets = require('../../lib/options/secrets.js');
const optionTable = require('../../lib/options/option-table.js');
const loadOptions = require('../../lib/options/load-options.js');
const dumpOptions = require('../../lib/options/dump-options.js');
const loadReport = require('../../lib/run/load-report.js');
const maskKey = require('../../lib/snapshot/mask-key.js');
const { fakeHost } = require('../support/fake-host.js');
const { dumpRun } = require('../../lib/commands/dump.js');

const TOKEN = 'sv=2026-01-01&ss=b&sig=Zm9vYmFyc2VjcmV0';
const KEY = 'kéy-of-the-team';

// Options named like credentials that are not secrets: a path, a name, a place or a method.
const NOT_SECRET = { s3CredentialsFile: 'a path', ociConfigFile: 'a path', azureConfigFile: 'a path', s3Profile: 'a name',
  ociProfile: 'a name', ociAuth: 'a method (api_key, instance_principal, …)', azureStorageAccount: 'an account name',
  s3BucketName: 'a name', osBucketName: 'a name', osNamespace: 'a name', azureContainerName: 'a name', s3EndpointOverride: 'a URL',
  s3Region: 'a region', s3ConfigFile: 'a path' };

describe('secrets: one registry, asked by every printer (lib/options/secrets.js)', function () {
  it('every option that looks like a credential is declared secret, or named here as not one', function () {
    const names = Object.keys(loadOptions.LOAD_DUMP_OPTIONS).concat(Object.keys(dumpOptions.DUMP_OPTIONS))
      .concat(optionTable.OPTIONS.map((o) => o.name));
    const looks = names.filter((n) => /token|secret|password|key|credential|auth|sas|par$|lakehouse|account|bucket|profile|config/i.test(n));
    const undecided = looks.filter((n) => !secrets.isSecret(n) && !NOT_SECRET[n]);
    expect(undecided).to.deep.equal([]);
    for (const n of ['maskKey', 'azureStorageSasToken']) expect(secrets.isSecret(n), n).to.equal(true);
    // Each declared secret is an option some member or util function takes.
    for (const n of secrets.OPTIONS) expect(names, n).to.include(n);
  });

  it('the plan\'s echoes, the returned options and option errors never show a secret\'s value', function () {
    expect(optionTable.optionEcho('load', { maskKey: KEY, orphans: 'delete' }, { maskKey: KEY, orphans: 'delete' }))
      .to.equal('orphans: "delete", maskKey: (set, not shown)');
    const plain = { threads: 4 };
    expect(secrets.withoutSecrets(plain)).to.equal(plain);
    expect(secrets.withoutSecrets({ threads: 4, azureStorageSasToken: TOKEN })).to.deep.equal({ threads: 4,
      azureStorageSasToken: '(set, not shown)' });
    const lines = loadReport.planLines({ dir: '/d', preset: { name: 'safe', source: 'built-in' }, optionEcho: 'maskKey: (set, not shown)',
      loadDumpOptions: { azureStorageSasToken: TOKEN, azureContainerName: 'c' }, tableCount: 1, redo: { state: 'ON' }, tuning: [],
      analyze: 'off', partialLines: [], advice: [], warnings: [], blockers: [] });
    expect(lines.join('\n')).to.include('"azureStorageSasToken":"(set, not shown)"');
    expect(lines.join('\n')).to.not.include('sig=');
    // A wrong value of a secret option: its type, never the value.
    expect(optionTable.valueProblem('maskKey', 123456)).to.equal('must be a string, not a number (not shown: a secret)');
    expect(loadOptions.loadDumpValueProblem('azureStorageSasToken', 987654)).to.equal('must be a string, not a number (not shown: a secret)');
    expect(optionTable.valueProblem('redoLog', 'sometimes')).to.include('"sometimes"'); // other values are still quoted
  });

  it('restore.dump refuses a SAS token util.dump* would log, and prints and returns a lakehouse target hidden', function () {
    const h = fakeHost({ shell: { version: '9.1.0' } });
    let e = null;
    try { dumpRun(h, '/out', { schemas: ['shop'], azureContainerName: 'c', azureStorageSasToken: TOKEN }); } catch (x) { e = x; }
    expect(e.code).to.equal('SECRET_LOGGED');
    expect(e.message).to.match(/^azureStorageSasToken: util\.dumpSchemas writes its options into the Shell's log \(.*mysqlsh\.log\) .*AZURE_STORAGE_SAS_TOKEN in the environment/);
    expect(e.message + h.printed.join('\n')).to.not.include('sig=');
    expect(h.calls('util.dumpSchemas')).to.have.length(0);
    const par = 'https://objectstorage.example/p/PARSECRET/n/ns/b/bucket/o/';
    const h2 = fakeHost({ shell: { version: '9.5.0' } });
    const r = dumpRun(h2, '/out', { schemas: ['shop'], lakehouseTarget: { outputUrl: par } });
    expect(h2.calls('util.dumpSchemas')[0][3].lakehouseTarget.outputUrl, 'util.dumpSchemas gets it').to.equal(par);
    const said = JSON.stringify(r) + h2.printed.join('\n');
    expect(said).to.not.include('PARSECRET');
    expect(said).to.include('"lakehouseTarget":"(set, not shown)"');
  });

  it('an address\'s password or pre-authenticated request token is shown hidden; a backup host\'s path is left as it is', function () {
    const H = '(set, not shown)';
    const cases = {
      'repl:a@127.0.0.1:3306': `repl:${H}@127.0.0.1:3306`, // a password of one character: only it
      'repl2:p@ss/Pw2@127.0.0.1:3306': `repl2:${H}@127.0.0.1:3306`, // @ and / in it: up to the last @
      'mysql://repl:p/ss@db1': `mysql://repl:${H}@db1`,
      'rsync://u:pw@bk:873/mod/x': `rsync://u:${H}@bk:873/mod/x`,
      'u:pw@bk:/dumps/x': `u:${H}@bk:/dumps/x`,
      'https://objectstorage.example.com/p/PARtok/n/ns/b/bk/o/d/': `https://objectstorage.example.com/p/${H}/n/ns/b/bk/o/d/`,
      // Not a password: a port and a path, a backup host's path holding @, no password, a local path.
      'rsync://bk:873/logs/a@b': null, 'rsync://bk@127.0.0.1:873/mod/dump': null, 'mysql://root@db1:3306': null, 'bk:/srv/a@b': null, 'bk:./x@y': null, 'root@127.0.0.1:3307': null, 'u:@h:3306': null,
      '/data/x@y:z': null, 'C:\\dumps\\x@y': null, 'backup@bk:/srv/binlogs': null,
    };
    for (const [text, hidden] of Object.entries(cases)) {
      expect(secrets.address(text), text).to.equal(hidden === null ? text : hidden);
      expect(secrets.hasSecret(text), text).to.equal(hidden !== null);
    }
    expect(secrets.shown('binlogs', 'repl2:p@ss/Pw2@db1:3306')).to.equal(`repl2:${H}@db1:3306`);
    // A message quoting the address, whole or in part.
    expect(secrets.scrub('cannot open https://os.example/p/PARtok/n/ns/b/bk/o/d (PARtok expired)', 'https://os.example/p/PARtok/n/ns/b/bk/o/d/'))
      .to.equal(`cannot open https://os.example/p/${H}/n/ns/b/bk/o/d (${H} expired)`);
  });

  it('a statement that may carry a password or an account\'s hash is shown with its literals hidden from the first such word', function () {
    const H = "'(set, not shown)'";
    expect(secrets.statement("CREATE USER 'x'@'%' IDENTIFIED WITH 'caching_sha2_password' AS '$A$005$h\\'ash' REQUIRE NONE"))
      .to.equal(`CREATE USER 'x'@'%' IDENTIFIED WITH ${H} AS ${H} REQUIRE NONE`);
    expect(secrets.statement("ALTER USER 'x'@'%' IDENTIFIED WITH 'caching_sha2_password' AS 0x2441243030")).to.equal(`ALTER USER 'x'@'%' IDENTIFIED WITH ${H} AS ${H}`);
    expect(secrets.statement("CREATE USER 'x'@'%' IDENTIFIED BY 'cut-of")).to.equal(`CREATE USER 'x'@'%' IDENTIFIED BY ${H}`); // a cut text
    expect(secrets.statement("CHANGE REPLICATION SOURCE TO SOURCE_USER = 'r', SOURCE_PASSWORD = 'pw'")).to.equal(`CHANGE REPLICATION SOURCE TO SOURCE_USER = 'r', SOURCE_PASSWORD = ${H}`);
    for (const t of ["INSERT INTO t VALUES ('password', 'x')", 'DROP TABLE `shop`.`t`']) expect(secrets.statement(t)).to.equal(t);
  });

  it('the bucket keys stay in the Python companion: read there only, and no message of it formats them', function () {
    const dir = path.join(__dirname, '../../plugins/restore/restore_py');
    const keys = fs.readFileSync(path.join(dir, 'bucket_keys.py'), 'utf8');
    for (const n of secrets.READ_BY_THE_COMPANION) expect(keys, n).to.include(`"${n}"`);
    for (const f of fs.readdirSync(dir).filter((x) => /\.py$/.test(x))) {
      const text = fs.readFileSync(path.join(dir, f), 'utf8');
      const uses = text.split('\n').filter((l) => /cfg\["(secretKey|token)"\]|keys\[[12]\]/.test(l));
      // Only the settings resolve() returns, the request's signature and its token header use them.
      for (const l of uses) expect(l, `${f}: ${l.trim()}`).to.match(/AWS4|x-amz-security-token|if cfg\["token"\]|"secretKey": keys\[1\]/);
    }
  });

  it('the masks\' key goes to the server as key XOR a pad the server made: no statement or argument holds it', function () {
    const pad = 'A5'.repeat(Buffer.byteLength(KEY));
    const h = fakeHost({ sql: [[/^SELECT HEX\(@restore_mask_pad\) AS p$/, { rows: [{ p: pad }] }]] });
    maskKey.hold(h, KEY, null);
    const sent = h.calls('sql').map((c) => JSON.stringify(c.slice(1))).join('\n');
    const hex = Buffer.from(KEY).toString('hex');
    for (const k of [KEY, 'kéy', hex, hex.toUpperCase()]) expect(sent).to.not.include(k);
    const xored = /X'([0-9A-F]+)'/.exec(h.statements().find((s) => /^SET @restore_mask_key = @restore_mask_pad \^ X'/.test(s)))[1];
    // The server's XOR gives the key's UTF-8 bytes back: the masks are those of a key sent as text.
    expect(Buffer.from(xored, 'hex').map((b) => b ^ 0xA5).toString('utf8')).to.equal(KEY);
    expect(h.statements().slice(-1)).to.deep.equal(['SET @restore_mask_pad = NULL']);
    // A pad of the wrong length is no pad: nothing is sent, the pad goes.
    const bad = fakeHost({ sql: [[/^SELECT HEX\(@restore_mask_pad\) AS p$/, { rows: [{ p: 'A5' }] }]] });
    expect(() => maskKey.hold(bad, KEY, null)).to.throw(/one-time pad of 1 byte/);
    expect(bad.statements().filter((s) => /restore_mask_key/.test(s))).to.deep.equal([]);
    // Keys longer than RANDOM_BYTES' 1024 bytes get a pad of several calls.
    const long = fakeHost({ sql: [[/^SELECT HEX/, { rows: [{ p: '00'.repeat(1500) }] }]] });
    maskKey.hold(long, 'x'.repeat(1500), null);
    expect(long.statements()[0]).to.equal('SET @restore_mask_pad = CONCAT(RANDOM_BYTES(1024), RANDOM_BYTES(476))');
  });

  it('statement events would carry the key: the sessions switch to row events, or the load is refused', function () {
    const host = (o) => fakeHost({ variables: Object.assign({ log_bin: 'ON', binlog_format: 'MIXED' }, o.variables),
      sql: [[/^SELECT @@SESSION\.binlog_format AS v$/, { rows: [{ v: o.session || 'MIXED' }] }]].concat(o.sql || []) });
    expect(maskKey.rowEvents(host({}), false)).to.deep.equal({ statement: "SET SESSION binlog_format = 'ROW'", before: 'MIXED' });
    expect(maskKey.rowEvents(host({ variables: { binlog_format: 'ROW' }, session: 'ROW' }), false).statement).to.equal(null);
    expect(maskKey.rowEvents(host({ variables: { log_bin: 'OFF' } }), false).statement).to.equal(null);
    expect(maskKey.rowEvents(host({}), true).statement, 'skipBinlog: nothing logged').to.equal(null);
    const denied = host({ sql: [[/^SET SESSION binlog_format = 'ROW'$/, () => {
      throw Object.assign(new Error('Access denied; you need (at least one of) the SUPER, SYSTEM_VARIABLES_ADMIN or SESSION_VARIABLES_ADMIN privilege(s)'),
        { isSqlError: true, code: 1227 });
    }]] });
    expect(() => maskKey.rowEvents(denied, false)).to.throw(/binlog_format is MIXED on this server.*Grant it SESSION_VARIABLES_ADMIN/);
    // The plan says where the key is while the load runs.
    expect(maskKey.keyLine(null, { statement: "SET SESSION binlog_format = 'ROW'" }, true)).to.equal('Masks\' key: random, made on the ' +
      'server: in no statement text (logs, performance_schema, processlist, the binary log: the sessions that use it write row ' +
      'events); held in @restore_mask_key of this session and of util.loadDump\'s sessions while the load and the masks run, ' +
      'where an account that may read performance_schema.user_variables_by_thread sees it');
    expect(maskKey.keyLine('k', { statement: null }, false)).to.match(/^Masks' key: maskKey, sent XOR a one-time pad the server made: .*, binary log\); held in @restore_mask_key of this session while the masks' UPDATEs run, where/);
  });
});
