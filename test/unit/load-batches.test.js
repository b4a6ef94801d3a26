'use strict';
// util.loadDump in calls of a slice of the tables each (lib/run/load-batches.js): when a load is
// sliced, how, and what each call gets.
const { expect } = require('chai');
const { fakeHost } = require('../support/fake-host');
const { planBatches, batchSize, MIN_TABLES, callLine } = require('../../lib/run/load-batches');

const names = (schema, n) => Array.from({ length: n }, (_, i) => ({ schema, dumpSchema: schema, table: 't' + i }));
const objects = (tables, views = []) => ({ tables, views, schemas: [...new Set(tables.map((t) => t.schema))].map((schema) => ({ schema })) });
const LO = { progressFile: '/state/p.json', threads: 8, skipBinlog: true, resetProgress: true, updateGtidSet: 'off' };
function plan(o, { lo = LO, existing = [], ...p } = {}) {
  const host = fakeHost({ sql: [[/information_schema\.SCHEMATA/, (sql, args) => ({ rows: args.filter((s) => existing.includes(s)).map((s) => ({ s })) })],
    [/information_schema\.USER_PRIVILEGES/, { rows: [{ g: "'root'@'localhost'" }, { g: "'Ann'@'%'" }] }]] });
  return planBatches(host, Object.assign({ objects: o, lo, planned: null, replay: null, topology: { kind: 'standalone' }, dropNative: false,
    resumed: false }, p));
}

describe('util.loadDump in calls of a slice each (lib/run/load-batches.js)', function () {
  it('the size of a call: about 20·sqrt(tables): 2,000 at 10,000, 4,472 at 50,000', function () {
    expect([batchSize(10000), batchSize(50000), batchSize(1500)]).to.deep.equal([2000, 4472, 775]);
  });

  it('fewer tables than the threshold: one call, nothing said', function () {
    expect(plan(objects(names('s', MIN_TABLES - 1)))).to.deep.equal({ calls: null, lines: [] });
  });

  it('10,000 tables in one schema: 4 slice calls of 2,000 and the last call with the load\'s own options minus them', function () {
    const r = plan(objects(names('s', 10000)));
    expect(r.calls).to.have.length(5);
    expect(r.lines).to.deep.equal(['util.loadDump in 5 calls of ≤2,000 tables (the Shell\'s scheduler is quadratic in tables: 10,000 tables, ' +
      'calls of about 20·sqrt(tables) each); one progress file, the last call with the load\'s own filters for the other 2,000 tables, views, users']);
    const [first, second] = r.calls;
    expect(first.includeSchemas).to.deep.equal(['s']);
    expect(first.includeTables.slice(0, 2)).to.deep.equal(['`s`.`t0`', '`s`.`t1`']);
    expect(first.includeTables).to.have.length(2000);
    expect(second.includeTables[0]).to.equal('`s`.`t2000`');
    // Only the first call resets the progress; no slice call loads users or updates the GTID set.
    expect(r.calls.map((c) => c.resetProgress)).to.deep.equal([true, undefined, undefined, undefined, undefined]);
    expect(r.calls.slice(0, 4).every((c) => c.loadUsers === false && c.updateGtidSet === undefined && c.progressFile === LO.progressFile)).to.equal(true);
    expect([callLine(r.calls, 1), callLine(r.calls, 4)]).to.deep.equal(['util.loadDump call 2 of 5: 2,000 tables',
      'util.loadDump call 5 of 5: the load\'s own options, the tables above left out']);
    const last = r.calls[4];
    expect(last.excludeTables).to.have.length(8000);
    expect(last.includeTables).to.equal(undefined);
    expect(last.updateGtidSet).to.equal('off');
    expect(last.loadUsers).to.equal(undefined);
  });

  it('the user\'s includeTables: the last call keeps those not sliced (Shell 9.1 refuses a table both included and excluded)', function () {
    const tables = names('s', 1600);
    const lo = Object.assign({}, LO, { includeTables: tables.map((t) => 's.' + t.table).concat(['s.v']) });
    const r = plan(objects(tables), { lo });
    expect(r.calls).to.have.length(2);
    expect(r.calls[1].excludeTables).to.equal(undefined);
    expect(r.calls[1].includeTables).to.deep.equal(tables.slice(800).map((t) => 's.' + t.table).concat(['s.v']));
  });

  it('a schema with views is never sliced: its tables go whole into the last call', function () {
    const r = plan(objects(names('v', 3000).concat(names('s', 2000)), [{ schema: 'v', view: 'x' }]));
    expect(r.calls.slice(0, -1).every((c) => c.includeSchemas.length === 1 && c.includeSchemas[0] === 's')).to.equal(true);
    const one = plan(objects(names('v', 3000), [{ schema: 'v', view: 'x' }]));
    expect(one.calls).to.equal(null);
    expect(one.lines[0]).to.match(/one call of 3,000 tables: 3,000 of them in schemas with views/);
  });

  it('one call, with the reason in the plan: a load view, binlogs, a replicated server, an account or a schema already there on a first attempt, object filters', function () {
    const o = objects(names('s', 2000));
    const why = (p) => plan(o, p).lines[0].replace(/^util\.loadDump in one call of 2,000 tables: /, '');
    expect(why({ planned: { viewed: true } })).to.match(/load view/);
    expect(why({ planned: { readsBucket: true } })).to.match(/bucket/);
    expect(plan(o, { planned: { local: true } }).calls).to.have.length(3);
    expect(why({ replay: {} })).to.match(/binlogs/);
    expect(why({ topology: { kind: 'source' } })).to.match(/source/);
    const users = Object.assign({}, LO, { loadUsers: true });
    expect(why({ lo: users, accounts: ["'bob'@'%'", "'ann'@'%'"] })).to.equal('account \'Ann\'@\'%\' exists: util.loadDump checks for existing ' +
      'accounts only in its first call');
    expect(plan(o, { lo: users, accounts: ["'bob'@'%'"] }).calls[2].loadUsers).to.equal(true);
    expect(why({ lo: users, accounts: null })).to.match(/^loadUsers, and the dump's @\.json lists no accounts/);
    expect(plan(o, { lo: users, accounts: [] }).calls).to.have.length(3);
    expect(why({ existing: ['s'] })).to.equal('schema s exists: util.loadDump checks for existing objects only in its first call');
    expect(why({ lo: Object.assign({}, LO, { excludeTriggers: ['s.t0.x'] }) })).to.equal('excludeTriggers given');
    expect(why({ lo: Object.assign({}, LO, { progressFile: '' }) })).to.match(/no local progress file/);
    expect(why({ dropNative: true })).to.match(/dropped or ignored/);
    // A resumed load: util.loadDump checks nothing in any call, so it is sliced as a first one would be.
    expect(plan(o, { existing: ['s'], resumed: true, lo: Object.assign({}, LO, { loadUsers: true }) }).calls).to.have.length(3);
  });
});
