'use strict';
// restore.load's order under plain Node (lib/commands/load.js on test/support/fake-host.js):
// preflight → prepare → server steps → drop existing → util.loadDump → analyze → revert, and
// what a failure at each step leaves: the later steps never run, revert always does, and the
// server's settings and redo log end as they began. The real-Shell end-to-end tests
// (test/shell/server-steps.test.js, test/shell/faults.test.js) stay: these check the order in seconds.
const { expect } = require('chai');
const { fakeHost, sqlError } = require('../support/fake-host.js');
const { runLoad } = require('../../lib/commands/load.js');

const SETTINGS = { innodb_flush_log_at_trx_commit: '1', sync_binlog: '1', innodb_adaptive_hash_index: 'ON',
  innodb_io_capacity: '200', innodb_io_capacity_max: '2000', local_infile: 'OFF', innodb_redo_log_capacity: '104857600' };

// A server holding shop.orders and shop.customers; DROP removes a table, util.loadDump creates the dump's.
function loadHost(faults, more) {
  const f = faults || {};
  const tables = new Set(['orders', 'customers']);
  const script = [
    [/FROM information_schema\.TABLES WHERE TABLE_SCHEMA = \?/, (s, a) => ({ rows: a[0] !== 'shop' ? []
      : [...tables].map((n) => ({ name: n, type: 'BASE TABLE', est: 10, bytes: 16384 })) })],
    [/^DROP TABLE IF EXISTS `shop`\.`(\w+)`$/, (s) => {
      if (f.drop) throw sqlError(1051, 'drop refused by the test');
      tables.delete(/`shop`\.`(\w+)`$/.exec(s)[1]);
      return { rows: [] };
    }],
    [/^SET GLOBAL sync_binlog = 0$/, () => { if (f.tune) throw sqlError(1227, 'tuning refused by the test'); return null; }],
    [/^ANALYZE /, () => { if (f.analyze) throw sqlError(1317, 'Query execution was interrupted'); return { rows: [] }; }],
  ];
  const host = fakeHost(Object.assign({
    mount: { '/d': 'sample-dumps/shop' },
    shell: { version: '8.4.0' }, // before 9.1: the plugin drops (util.loadDump's dropExistingObjects is 9.1+)
    variables: Object.assign({}, SETTINGS),
    grants: f.grants || undefined,
    sql: script.concat(f.sql || []),
    loadDump: () => {
      if (f.loadDump) { const e = new Error('Util.loadDump: failed by the test'); e.isShellApiError = true; throw e; }
      ['orders', 'customers', 'products'].forEach((t) => tables.add(t));
    },
  }, more || {}));
  host.tables = tables;
  return host;
}

// What happened, in order: the steps that change something.
function events(host) {
  return host.log.map((e) => {
    if (e[0] === 'util.loadDump') return 'loadDump';
    if (e[0] !== 'sql') return null;
    if (/^SET GLOBAL/.test(e[1])) return 'set ' + e[1].split(' ')[2];
    if (/^ALTER INSTANCE/.test(e[1])) return /DISABLE/.test(e[1]) ? 'redo off' : 'redo on';
    if (/^DROP /.test(e[1])) return 'drop';
    if (/^ANALYZE /.test(e[1])) return 'analyze';
    return null;
  }).filter(Boolean);
}

function phases(report) { return report.phases.map((p) => p.phase + ':' + p.status); }

function run(host, options, step) {
  const extensions = step === undefined ? undefined : { partial: step };
  try {
    return { report: runLoad(host, '/d', Object.assign({ preset: 'fastest', dropExisting: true }, options || {}), extensions), error: null };
  } catch (e) {
    return { report: null, error: e };
  }
}

// A partial step that records when it runs (and fails in prepare when told).
function recordingStep(host, failPrepare) {
  return {
    optionNames: [],
    plan: () => ({ loadOptions: {}, lines: ['partial: planned'], facts: { planned: true }, loadDir: '/d' }),
    prepare: () => {
      host.log.push(['step.prepare']);
      if (failPrepare) throw Object.assign(new Error('stubs could not be written (test)'), { isUserError: true });
      return { facts: { prepared: true } };
    },
    report: (ctx, planned, outcome) => ({ lines: ['partial: loaded=' + outcome.loaded] }),
  };
}

function expectServerAsBefore(host) {
  expect(host.server.variables).to.include(SETTINGS);
  expect(host.server.status.Innodb_redo_log_enabled).to.equal('ON');
  expect(host.server.locks.size, 'the restore lock is released').to.equal(0);
  expect(host.fs.paths().filter((p) => p.indexOf('/restore/state/') >= 0), 'no state file left').to.deep.equal([]);
}

describe('restore.load order and failures (lib/commands/load.js, plain Node)', function () {
  it('runs preflight, prepare, server steps, drop, util.loadDump, analyze, revert in that order', function () {
    const host = loadHost();
    const r = run(host, {}, recordingStep(host));
    expect(r.error).to.equal(null);
    expect(phases(r.report)).to.deep.equal(['preflight:ok', 'prepare:ok', 'server steps:ok', 'drop existing:ok',
      'util.loadDump:ok', 'analyze:ok', 'revert:ok']);
    const ev = events(host);
    const prepareAt = host.log.findIndex((e) => e[0] === 'step.prepare');
    const firstChange = host.log.findIndex((e) => e[0] === 'sql' && /^SET GLOBAL/.test(e[1]));
    expect(prepareAt, 'prepare before any server change').to.be.below(firstChange);
    const at = (x) => ev.indexOf(x);
    expect(at('set sync_binlog')).to.be.below(at('redo off'));
    expect(at('redo off')).to.be.below(at('drop'));
    expect(at('drop')).to.be.below(at('loadDump'));
    expect(at('loadDump')).to.be.below(at('analyze'));
    expect(at('analyze')).to.be.below(at('redo on'));
    expect(ev.lastIndexOf('set sync_binlog')).to.be.above(at('redo on'), 'settings put back after the redo log');
    expect(r.report.ok).to.equal(true);
    expect(r.report.partial).to.deep.equal({ planned: true, prepared: true });
    expect(r.report.partialLines).to.deep.equal(['partial: loaded=true']);
    expect([...host.tables].sort()).to.deep.equal(['customers', 'orders', 'products']);
    expectServerAsBefore(host);
  });

  it('a dry run plans and changes nothing: no prepare, no server step, no drop, no util.loadDump', function () {
    const host = loadHost();
    const r = run(host, { dryRun: true }, recordingStep(host));
    expect(r.error).to.equal(null);
    expect(r.report.dryRun).to.equal(true);
    expect(events(host)).to.deep.equal([]);
    expect(host.log.some((e) => e[0] === 'step.prepare')).to.equal(false);
    expect(host.printed).to.include('Dry run: nothing was dropped, changed or loaded.');
    expectServerAsBefore(host);
  });

  const FAILURES = [
    { at: 'preflight', faults: { grants: ['GRANT SELECT, INSERT ON `shop`.* TO `u`@`%`'] },
      phases: ['preflight:failed'], message: /^This account cannot disable the InnoDB redo log: it lacks the INNODB_REDO_LOG_ENABLE privilege/, ran: [] },
    { at: 'prepare', failPrepare: true, phases: ['preflight:ok', 'prepare:failed', 'revert:ok'],
      message: /^restore\.load failed in the prepare phase: stubs could not be written \(test\)\. No server setting was changed\./, ran: [] },
    { at: 'server steps', faults: { tune: true }, phases: ['preflight:ok', 'prepare:ok', 'server steps:failed', 'revert:ok'],
      message: /failed in the server steps phase: tuning refused by the test\. The redo log and the server settings were put back/,
      ran: ['set local_infile', 'set innodb_flush_log_at_trx_commit'] },
    { at: 'drop existing', faults: { drop: true }, phases: ['preflight:ok', 'prepare:ok', 'server steps:ok', 'drop existing:failed', 'revert:ok'],
      message: /failed in the drop existing phase: Dropping table shop\.orders failed: drop refused by the test\. The redo log and the server settings were put back as they were\. Nothing was dropped: the server still has all 2 object\(s\)\./,
      ran: ['redo off', 'drop'] },
    { at: 'util.loadDump', faults: { loadDump: true },
      phases: ['preflight:ok', 'prepare:ok', 'server steps:ok', 'drop existing:ok', 'util.loadDump:failed', 'revert:ok'],
      message: /^util\.loadDump failed: Util\.loadDump: failed by the test\..*put back.*2 existing object\(s\) were dropped/, ran: ['drop', 'loadDump'] },
    { at: 'analyze', faults: { analyze: true },
      phases: ['preflight:ok', 'prepare:ok', 'server steps:ok', 'drop existing:ok', 'util.loadDump:ok', 'analyze:failed', 'revert:ok'],
      // util.loadDump had finished: never "partly loaded", never "load again".
      message: /failed in the analyze phase: Query execution was interrupted\. The data is in: util\.loadDump finished without an error; only the statistics step failed\. Fix the cause and run restore\.analyze on the same dump \(the data need not be loaded again\)\..* 2 existing object\(s\) were dropped before the failure: .*util\.loadDump created and loaded them again \(its phase finished without an error\)\.$/,
      ran: ['loadDump', 'analyze'] },
  ];

  FAILURES.forEach((c) => {
    it('a failure in ' + c.at + ': no later step runs, revert does, the server ends as it began', function () {
      const host = loadHost(c.faults);
      const r = run(host, {}, recordingStep(host, c.failPrepare));
      expect(r.error, 'the load fails').to.not.equal(null);
      expect(r.error.message).to.match(c.message);
      expect(r.error.isUserError, 'a sentence, no stack').to.equal(true);
      const report = host.printed.some((l) => /^restore\.load report for /.test(l));
      expect(report, 'the report is printed once anything ran').to.equal(c.at !== 'preflight');
      if (c.at !== 'preflight') {
        const all = host.printed.join('\n');
        const printed = all.slice(all.indexOf('restore.load report for '));
        c.phases.forEach((p) => {
          const [name, status] = p.split(':');
          expect(printed).to.match(new RegExp('^  ' + name.replace('.', '\\.') + ' +[0-9.]+ +' + status + '$', 'm'));
        });
        const later = ['prepare', 'server steps', 'drop existing', 'util.loadDump', 'analyze'];
        later.slice(later.indexOf(c.at) + 1).forEach((name) => expect(printed).to.not.match(new RegExp('^  ' + name.replace('.', '\\.') + ' ', 'm')));
      }
      const ev = events(host);
      c.ran.forEach((x) => expect(ev, x).to.include(x));
      const order = ['redo off', 'drop', 'loadDump', 'analyze'];
      const failedIndex = { preflight: -1, prepare: -1, 'server steps': -1, 'drop existing': 1, 'util.loadDump': 2, analyze: 3 }[c.at];
      order.slice(failedIndex + 1).forEach((x) => { if (x !== 'redo off' || c.at !== 'drop existing') expect(ev, x + ' after the failure').to.not.include(x); });
      if (c.at === 'preflight' || c.at === 'prepare') expect(ev.filter((x) => /^set |^redo off/.test(x))).to.deep.equal([]);
      expectServerAsBefore(host);
    });
  });

  describe('options: resolved once, read only, composed once', function () {
    // A step that keeps what it was given and adds options of its own.
    function addingStep(host, seen, adds) {
      return {
        optionNames: ['latest'],
        plan: (ctx) => { seen.ctx = ctx; return { loadOptions: adds, lines: [], facts: null, loadDir: '/d' }; },
        prepare: (ctx) => { seen.prepareCtx = ctx; return null; },
        report: () => ({ lines: [] }),
      };
    }

    it('steps read one frozen value (options, own settings, util.loadDump options, nested values too)', function () {
      const host = loadHost();
      const seen = {};
      const r = run(host, { includeTables: ['shop.orders', 'shop.customers'], latest: { 'shop.orders': 1 }, threads: 3 },
        addingStep(host, seen, {}));
      expect(r.error).to.equal(null);
      const ctx = seen.ctx;
      expect(Object.isFrozen(ctx), 'ctx').to.equal(true);
      ['options', 'own', 'loadOptions'].forEach((k) => expect(Object.isFrozen(ctx[k]), k).to.equal(true));
      expect(Object.isFrozen(ctx.loadOptions.includeTables), 'a list inside').to.equal(true);
      expect(Object.isFrozen(ctx.options.latest), 'a dictionary inside').to.equal(true);
      expect(ctx.loadOptions).to.include({ threads: 3 });
      expect(ctx.loadOptions, 'the step\'s own option is not util.loadDump\'s').to.not.have.property('latest');
      expect(seen.prepareCtx, 'prepare reads the same value').to.equal(ctx);
      const final = host.calls('util.loadDump')[0][2];
      expect(Object.isFrozen(final), 'the options util.loadDump gets').to.equal(true);
    });

    it('a step that writes into the options fails the preflight, before anything changes', function () {
      const host = loadHost();
      const writing = {
        optionNames: [],
        plan: (ctx) => { ctx.loadOptions.threads = 64; return null; }, // strict mode: a frozen object throws
        report: () => ({ lines: [] }),
      };
      const r = run(host, {}, writing);
      expect(r.error).to.be.an.instanceOf(TypeError);
      expect(r.error.message).to.match(/read.only|frozen|Cannot assign/i);
      expect(events(host)).to.deep.equal([]);
      const nested = {
        optionNames: [],
        plan: (ctx) => { ctx.loadOptions.includeTables.push('shop.products'); return null; },
        report: () => ({ lines: [] }),
      };
      const r2 = run(loadHost(), { includeTables: ['shop.orders'] }, nested);
      expect(r2.error).to.be.an.instanceOf(TypeError);
    });

    it('util.loadDump gets the resolved options, then the step\'s additions, then dropExisting\'s and the progress file\'s', function () {
      const host = loadHost();
      const seen = {};
      const adds = { disableBulkLoad: true, threads: 2 };
      const r = run(host, { threads: 6, loadUsers: false }, addingStep(host, seen, adds));
      expect(r.error).to.equal(null);
      const calls = host.calls('util.loadDump');
      expect(calls.length).to.equal(1);
      const [, dir, options] = calls[0];
      expect(dir).to.equal('/d');
      const resolved = seen.ctx.loadOptions;
      const progress = options.progressFile;
      expect(progress, 'the plugin\'s progress file, outside the dump').to.match(/^\/home\/u\/\.mysqlsh\/restore\/progress\/load-progress\..*\.json$/);
      // dropExisting (8.4: the plugin drops, util.loadDump's dropExistingObjects is not used) starts the progress afresh.
      // The shop's tables are small: the preset's deferred indexes are left to util.loadDump's default (lib/run/load-levers.js).
      expect(resolved.deferTableIndexes).to.equal('all');
      expect(options).to.deep.equal(Object.assign({}, resolved, { deferTableIndexes: 'fulltext' }, adds,
        { resetProgress: true, progressFile: progress }));
      expect(resolved, 'the resolved value is as it was').to.include({ threads: 6, loadUsers: false });
      expect(resolved).to.not.have.property('progressFile');
      expect(r.report.loadDumpOptions).to.deep.equal(options);
      // The progress file's directory is made before util.loadDump, and the finished load's file removed.
      expect(host.log.some((e) => e[0] === 'files.makeDirs' && e[1] === '/home/u/.mysqlsh/restore/progress')).to.equal(true);
      expect(host.log.some((e) => e[0] === 'files.remove' && e[1] === progress)).to.equal(true);
    });

    // The dry run's "util.loadDump options:" line, as JSON.
    function printedOptions(host) {
      const line = host.printed.find((l) => /^ {2}util\.loadDump options: /.test(l));
      return JSON.parse(line.replace(/^ {2}util\.loadDump options: /, ''));
    }

    it('a dry run prints exactly the options util.loadDump then gets: masks while loading, parents, tuning, a partial view', function () {
      const keyThread = [[/FROM performance_schema\.threads WHERE PROCESSLIST_ID = CONNECTION_ID\(\)/, { rows: [{ t: 42 }] }],
        [/FROM performance_schema\.user_variables_by_thread WHERE THREAD_ID = \?/, { rows: [{ v: 'ok' }] }],
        [/^SELECT HEX\(@restore_mask_pad\) AS p$/, { rows: [{ p: '5A' }] }]];
      const options = { preset: 'fastest', latest: { 'shop.orders': 1 }, mask: { 'shop.customers.email': 'email' },
        orphans: 'parents', maskKey: 'k', sessionInitSql: ['SET @user_statement = 1'] };
      const got = [true, false].map((dryRun) => {
        const host = loadHost({ sql: keyThread }, { shell: { version: '9.1.0' },
          variables: Object.assign({ innodb_ddl_buffer_size: '1048576', innodb_buffer_pool_size: '1073741824' }, SETTINGS) });
        const r = run(host, Object.assign({ dryRun }, options));
        if (dryRun) expect(r.error).to.equal(null);
        return { host, printed: printedOptions(host), report: r.report, calls: host.calls('util.loadDump') };
      });
      const [dry, real] = got;
      expect(dry.calls, 'a dry run loads nothing').to.have.length(0);
      expect(real.calls.length, 'util.loadDump called').to.be.at.least(1);
      const received = real.calls[0][2];
      // What the dry run printed, what the real run printed, what util.loadDump received: one value.
      expect(dry.printed).to.deep.equal(JSON.parse(JSON.stringify(received)));
      expect(real.printed).to.deep.equal(JSON.parse(JSON.stringify(received)));
      expect(dry.report.loadDumpOptions).to.deep.equal(dry.printed);
      // The masks' key statement first, then the index builds' settings (fastest tunes), then the user's.
      expect(received.sessionInitSql).to.have.length(3);
      expect(received.sessionInitSql[0]).to.match(/^SET @restore_mask_key = \(SELECT VARIABLE_VALUE FROM performance_schema\.user_variables_by_thread WHERE THREAD_ID = 42 /);
      expect(received.sessionInitSql[1]).to.match(/^SET SESSION innodb_ddl_buffer_size = /);
      expect(received.sessionInitSql[2]).to.equal('SET @user_statement = 1');
      expect(JSON.stringify(received), 'the key is in no option').to.not.include('"k"');
    });

    it('a step\'s progress file and resetProgress win over the plugin\'s; a given progressFile is kept', function () {
      const host = loadHost();
      const seen = {};
      run(host, {}, addingStep(host, seen, { progressFile: '/v/load-progress.json', resetProgress: false }));
      const options = host.calls('util.loadDump')[0][2];
      expect(options).to.include({ progressFile: '/v/load-progress.json', resetProgress: false });
      expect(host.log.some((e) => e[0] === 'files.makeDirs' && /\/progress$/.test(e[1])), 'no progress directory of the plugin\'s made').to.equal(false);

      const host2 = loadHost();
      host2.fs.put('/work/.keep', ''); // the folder the given progressFile goes in is there (the preflight checks it)
      run(host2, { progressFile: '/work/p.json' }, addingStep(host2, {}, {}));
      expect(host2.calls('util.loadDump')[0][2]).to.include({ progressFile: '/work/p.json' }).and.to.not.have.property('resetProgress');
    });
  });
});
