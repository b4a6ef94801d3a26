// Which transactions of a replay belong to the load: the objects each one names (its row events' tables,
// its statements read by lib/binlog/statements.js, the reader restore.binlogs lists dangerous events with)
// against what the load creates. What touches only objects left out (by a filter option, or the dump's scope:
// util.dumpSchemas' schemas) is skipped and counted. A statement whose objects are not read replays when no
// filter option is given (nothing is filtered: a schema dump's scope is schemas, such statements the
// instance's, as mysqlbinlog | mysql replays them), and is refused with one, naming it and the option.
// Account statements are the server's, not a schema's: the table and schema filters do not choose them, and
// mysqlbinlog | mysql replays them, so they replay too (a grant on a schema holds whether the schema is there);
// a GRANT / REVOKE on a table or routine the load leaves out is skipped (it fails where that is not); with
// loadUsers and includeUsers / excludeUsers, the accounts they name decide as the tables do (one not read: refused).
var UserError = require('../core/user-error.js').UserError;
var secrets = require('../options/secrets.js');
var statements = require('./statements.js');

var TABLE_OPTIONS = ['includeSchemas', 'excludeSchemas', 'includeTables', 'excludeTables'];
var OBJECT_OPTIONS = ['includeRoutines', 'excludeRoutines', 'includeEvents', 'excludeEvents', 'includeTriggers', 'excludeTriggers'];
var USER_OPTIONS = ['includeUsers', 'excludeUsers'];

function said(text) {
  return 'restore.load with binlogs: ' + text + ' Nothing was changed.';
}

function given(lo, name) {
  var v = lo[name];
  return Array.isArray(v) ? v.length > 0 : typeof v === 'string' ? v.trim() !== '' : false;
}

// The tables (["s.t"]) or schema a DDL statement names, or null when its text names neither (the tables a
// replay creates: lib/binlog/replay-tables.js).
function ddlTarget(text, schema) {
  var r = statements.read(text, schema);
  if (!r) return null;
  if (/-database$/.test(r.kind)) return { schema: r.schemas[0], tables: [] };
  return r.written.length ? { schema: null, tables: r.written } : null;
}

// The tables ("schema.table", source names) whose rows or definition the transaction changes.
function writtenTables(t) {
  var names = Object.keys(t.tables);
  t.statements.forEach(function (s) {
    var r = statements.read(s.text, s.schema);
    if (r) r.written.forEach(function (n) { if (names.indexOf(n) < 0) names.push(n); });
  });
  return names;
}

// includeUsers / excludeUsers' entries, as util.loadDump takes them ('u'@'h', u@h, or u: every host of u): [{user, host | null}].
function userPatterns(v) {
  var list = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : [];
  var part = /\s*(?:'((?:[^'\\]|\\.|'')*)'|`((?:[^`]|``)*)`|"((?:[^"\\]|\\.)*)"|([^@'"`\s]+))\s*/.source;
  var re = new RegExp('^' + part + '(?:@' + part + ')?$');
  return list.map(function (x) {
    var m = re.exec(String(x));
    if (!m) return null;
    var pick = function (k) { return [m[k], m[k + 1], m[k + 2], m[k + 3]].filter(function (y) { return y !== undefined; })[0]; };
    var host = pick(5);
    return { user: pick(1), host: host === undefined ? null : host };
  }).filter(Boolean);
}

function split(name) {
  var dot = name.indexOf('.');
  return { schema: name.slice(0, dot), table: name.slice(dot + 1) };
}

// p: {lo (util.loadDump's options), dump (the dump model: origin, schemas [{schema, tables, views}]), triggers ([{schema,
// table, name}]: the dump's, dump names), chosen: the filters' verdicts (lib/partial: {table (s, t), schema (s): a
// schema-level object of s, loadsSchema (s): the load creates the schema, routine ([s, n]), event ([s, n]), trigger ([s,
// table, n])})}. The filter planReplay's
// keepForLoad reads, with what it learns on the way (schemas and tables the replay creates, XA transactions
// prepared) and its counts.
function forLoad(p) {
  var lo = p.lo || {};
  var chosen = p.chosen;
  var origin = p.dump.origin || null; // null: a dump too old to say (as util.dumpSchemas: its schemas)
  var dumpSchemas = {};
  var dumpTables = {};
  var triggers = {};
  p.dump.schemas.forEach(function (e) {
    dumpSchemas[e.schema] = true;
    (e.tables || []).concat(e.views || []).forEach(function (t) { dumpTables[e.schema + '.' + t] = true; });
  });
  (p.triggers || []).forEach(function (t) { triggers[t.schema + '.' + t.name] = t.schema + '.' + t.table; });
  // A source with lower_case_table_names 1 or 2 logs `shop`.`orders` where its dump says `Shop`.`Orders`.
  var folded = { schemas: {}, tables: {} };
  Object.keys(dumpSchemas).forEach(function (s) { (folded.schemas[s.toLowerCase()] = folded.schemas[s.toLowerCase()] || []).push(s); });
  Object.keys(dumpTables).forEach(function (n) {
    var q = split(n);
    var k = q.schema + '.' + q.table.toLowerCase();
    (folded.tables[k] = folded.tables[k] || []).push(q.table);
  });
  var options = TABLE_OPTIONS.concat(OBJECT_OPTIONS).filter(function (n) { return given(lo, n); });
  var names = Object.keys(dumpSchemas);
  var scope = origin === 'dumpInstance' ? null : 'the dump' + (origin ? ' (util.' + origin + ')' : '') + ' holds only ' +
    (origin === 'dumpTables' ? 'some tables of ' : '') +
    'schema' + (names.length === 1 ? ' ' : 's ') + names.join(', ');
  var accounts = p.dump.rootJson && Array.isArray(p.dump.rootJson.users) ? p.dump.rootJson.users.length : 0;
  // includeUsers / excludeUsers choose among the dump's accounts only when loadUsers loads them.
  var f = { options: options, scope: scope, users: lo.loadUsers === true ? USER_OPTIONS.filter(function (n) { return given(lo, n); }) : [],
    origin: origin, dumpAccounts: accounts,
    created: { schemas: {}, tables: {} }, left: {}, triggers: triggers, xids: {}, loadUsers: lo.loadUsers === true,
    counts: { accounts: 0, objects: 0, accountsLeft: 0, unread: 0 } };
  var include = userPatterns(lo.includeUsers);
  var exclude = userPatterns(lo.excludeUsers);
  var matches = function (list, a) {
    return list.some(function (p) { return p.user === a.user && (p.host === null || p.host.toLowerCase() === String(a.host).toLowerCase()); });
  };
  // An account the load's includeUsers / excludeUsers choose (with loadUsers: else they choose nothing).
  f.user = function (a) { return !f.users.length || (!matches(exclude, a) && (!include.length || matches(include, a))); };
  // Names the log gives in another case than the dump (caseOf below): {log name: dump name} taken
  // (schemas: for schemaMap's rename too), and this transaction's names that cannot be taken (keepForLoad refuses them).
  f.aliases = {};
  f.caseProblems = [];
  var sourceLctn = p.sourceLctn === undefined || p.sourceLctn === null ? null : String(p.sourceLctn);
  // The dump's name for one the log gives only in another case: the server compares them without case when the target's
  // lower_case_table_names is 1 or 2 (p.fold), so the load's object is the one it changes. A source known to keep case
  // (lower_case_table_names 0 in the dump's @.json) logs another object under that name: it stays another.
  var caseOf = function (kind, name, exact, candidates, where) {
    if (exact || !candidates || !candidates.length || sourceLctn === '0') return name;
    if (candidates.length > 1 || !p.fold) {
      f.caseProblems.push({ kind: kind, log: where(name), dump: candidates.map(where), ambiguous: candidates.length > 1 });
      return name;
    }
    if (kind === 'schema') f.aliases[name] = candidates[0];
    return candidates[0];
  };
  var schemaOf = function (s) {
    if (s === null || s === undefined) return s;
    return caseOf('schema', s, !!dumpSchemas[s] || !!f.created.schemas[s], folded.schemas[String(s).toLowerCase()],
      function (x) { return '`' + x + '`'; });
  };
  var tableOf = function (s, t) {
    return caseOf('table', t, !!dumpTables[s + '.' + t] || !!f.created.tables[s + '.' + t], folded.tables[s + '.' + String(t).toLowerCase()],
      function (x) { return '`' + s + '`.`' + x + '`'; });
  };
  // (schema, table) as the dump names them: what the load's filters and the dump's lists are asked about.
  f.name = function (s, t) { var c = schemaOf(s); return { schema: c, table: t === undefined ? t : tableOf(c, t) }; };
  // "schema.table" as the dump names it.
  f.key = function (n) { var q = split(n); var c = f.name(q.schema, q.table); return c.schema + '.' + c.table; };
  f.inSchema = function (s) { s = schemaOf(s); return !!dumpSchemas[s] || !!f.created.schemas[s]; };
  // A table (or view) the load creates, or would have had it been in the dump; one the replay creates in scope counts.
  f.table = function (s, t) {
    var c = f.name(s, t);
    s = c.schema;
    t = c.table;
    if (!f.inSchema(s) || !chosen.table(s, t) || f.left[s + '.' + t]) return false;
    return origin !== 'dumpTables' || !!dumpTables[s + '.' + t] || !!f.created.tables[s + '.' + t];
  };
  // A table the filters choose, whether or not the dump held that name (a loaded table renamed to it).
  f.byFilters = function (s, t) { var c = f.name(s, t); s = c.schema; t = c.table; return f.inSchema(s) && chosen.table(s, t) && !f.left[s + '.' + t]; };
  // A schema-level object (routine, event, the schema's own DDL) of s is created.
  f.schema = function (s) { s = schemaOf(s); return f.inSchema(s) && chosen.schema(s); };
  // The load creates schema s (for the counts: only of tables it leaves out, or of schemas it does not load).
  f.loadsSchema = function (s) { s = schemaOf(s); return f.inSchema(s) && (!chosen.loadsSchema || chosen.loadsSchema(s)); };
  // CREATE / DROP DATABASE s: of a whole instance's dump, a new schema the filters allow is created.
  f.database = function (s) { s = schemaOf(s); return origin === 'dumpInstance' && !dumpSchemas[s] ? chosen.schema(s) : f.schema(s); };
  f.routine = function (s, n) { s = schemaOf(s); return f.schema(s) && chosen.routine([s, n]); };
  f.event = function (s, n) { s = schemaOf(s); return f.schema(s) && chosen.event([s, n]); };
  f.trigger = function (s, table, n) { var c = f.name(s, table); return f.table(c.schema, c.table) && chosen.trigger([c.schema, c.table, n]); };
  // Every table of s is created (no table-level narrowing there): a trigger whose table is not told goes with its schema.
  f.wholeSchema = function (s) {
    s = schemaOf(s);
    var named = function (n) {
      var list = Array.isArray(lo[n]) ? lo[n] : typeof lo[n] === 'string' ? lo[n].split(',') : [];
      return list.some(function (x) { return String(x).replace(/`/g, '').trim().split('.')[0] === s; });
    };
    return f.schema(s) && origin !== 'dumpTables' && !given(lo, 'includeTables') && !named('excludeTables') &&
      !named('includeTriggers') && !named('excludeTriggers');
  };
  return f;
}

// What leaves objects out, said: "excludeTables", "includeTables and excludeRoutines", the dump's scope.
function narrowing(f) {
  var parts = f.options.length ? [f.options.join(', ')] : [];
  if (f.scope) parts.push(f.scope);
  return parts.join('; ');
}

// What to do about a statement that cannot be told, there: load without the options, another dump, or stop before it.
function whatToDo(f, t) {
  var ways = [];
  if (f.options.length) ways.push('load without ' + f.options.join(', '));
  if (f.scope) ways.push('load a dump of the whole instance (util.dumpInstance)');
  ways.push('stop before it (stopBefore: "' + (t.gtid || t.file + ':' + t.start) + '") and replay the rest with mysqlbinlog | mysql');
  return ways.join(', or ');
}

function quoteAccount(a) {
  return '\'' + String(a.user).replace(/'/g, '\'\'') + '\'@\'' + String(a.host).replace(/'/g, '\'\'') + '\'';
}

function quoted(text) {
  return JSON.stringify(secrets.statement(text).replace(/\s+/g, ' ').slice(0, 100));
}

// A transaction naming a loaded object only in another case than the dump, where the target would not take it for
// that object (lower_case_table_names 0: the load created `Shop`, the log says `shop`) or two of the dump's names
// match it: refused before anything changes. Skipped as "not loaded" it would leave the load's rows behind.
function refuseCase(t, f) {
  if (!f.caseProblems.length) return;
  var c = f.caseProblems[0];
  var at = (t.gtid ? t.gtid + ' ' : '') + '(' + t.file + ':' + t.start + ')';
  var stop = 'stop before it (stopBefore: "' + (t.gtid || t.file + ':' + t.start) + '") and replay the rest with mysqlbinlog | mysql';
  throw new UserError('BINLOG_NAME_CASE', said('transaction ' + at + ' names the ' + c.kind + ' ' + c.log + ' where the dump names ' +
    c.dump.join(' and ') + (c.ambiguous ? ', equal to it but for case, so which one it changes cannot be told. Load only one of them ' +
      '(excludeSchemas / excludeTables), or ' + stop + '.'
      : ': a source with lower_case_table_names 1 or 2 logs names in lower case, so it may be that ' + c.kind + ', and on this target ' +
      '(lower_case_table_names 0) ' + c.log + ' is not the one the load creates: applied, the transaction would miss the loaded rows; ' +
      'skipped, it would leave them behind. Load onto a target with lower_case_table_names=1 (set when its data directory is initialized), ' +
      'or ' + stop + '.')),
  { file: t.file, position: t.start, gtid: t.gtid || null, logName: c.log, dumpNames: c.dump });
}

// Whether transaction t is replayed: every object it names loaded (true), none ('notLoaded' when an object of a
// loaded schema is among them, else 'otherSchemas': the counts the plan prints); some: refused, naming it. A
// table the transaction creates is loaded when the filters would have chosen it had it been in the dump (a dump of
// some tables, util.dumpTables: only those, under their names or new ones).
// f: forLoad's, or null (nothing narrows: every transaction replays).
function keepForLoad(t, f) {
  if (!f) return true;
  f.caseProblems = [];
  var verdicts = []; // {loaded, name, schema}
  var unknown = null; // {text, why}
  var xaStart = null;
  var renamed = []; // tables that are not loaded after this transaction either: renamed from one, a view over one
  var accounts = 0;
  // kind: a table's (undefined), another object's (true), an account's ('account').
  var add = function (loaded, name, schema, object) { verdicts.push({ loaded: loaded, name: name, schema: schema, object: object || false }); };
  Object.keys(t.tables).forEach(function (n) { var q = split(n); add(f.table(q.schema, q.table), n, q.schema); });
  t.statements.forEach(function (s) {
    var r = statements.read(s.text, s.schema);
    if (!r) { unknown = unknown || { text: s.text, why: 'the replay does not read which objects it changes' }; return; }
    // RENAME a TO b: b holds a's rows, loaded as a is (b left out by the filters while a is loaded: refused as both).
    var paired = [].concat.apply([], r.renames);
    r.renames.forEach(function (x) {
      var a = split(x[0]);
      var b = split(x[1]);
      var loaded = f.table(a.schema, a.table);
      add(loaded, x[0], a.schema);
      // b is the loaded table under another name: the filters decide it, not whether the dump held that name.
      if (loaded) add(f.byFilters(b.schema, b.table), x[1], b.schema);
      else renamed.push(x[1]);
    });
    // A view over a table the load leaves out (of a schema it loads) cannot be created: left out with it, and after it.
    var over = r.reads.filter(function (n) { var q = split(n); return f.loadsSchema(q.schema) && !f.table(q.schema, q.table); });
    r.tables.forEach(function (n) {
      if (paired.indexOf(n) >= 0) return;
      var q = split(n);
      if (over.length) { add(false, n + ' (over ' + over.join(', ') + ')', q.schema); renamed.push(n); } else add(f.table(q.schema, q.table), n, q.schema);
    });
    r.schemas.forEach(function (x) { add(f.database(x), 'schema ' + x, x); });
    r.objects.forEach(function (o) {
      var name = o.type + ' ' + o.schema + '.' + o.name;
      if (o.type === 'routine') add(f.routine(o.schema, o.name), name, o.schema, true);
      else if (o.type === 'event') add(f.event(o.schema, o.name), name, o.schema, true);
      else {
        var table = o.table || f.triggers[o.schema + '.' + o.name] || f.triggers[f.name(o.schema).schema + '.' + o.name] || null;
        var q = table ? split(table) : null;
        if (q) add(f.trigger(q.schema, q.table, o.name), name + ' on ' + table, o.schema, true);
        else if (!f.schema(o.schema)) add(false, name, o.schema, true);
        else if (f.wholeSchema(o.schema)) add(true, name, o.schema, true);
        else unknown = unknown || { text: s.text, why: 'DROP TRIGGER does not name its table, and neither the dump nor the replay before it says which' };
      }
    });
    if (r.account) {
      accounts++;
      if (f.users.length && !r.accounts) unknown = unknown || { text: s.text, why: 'which accounts it names is not read', options: f.users };
      if (f.users.length && r.accounts) {
        r.accounts.forEach(function (a) { add(f.user(a), 'account ' + quoteAccount(a), null, 'account'); });
      }
      if (r.on && r.on.table) add(f.table(r.on.schema, r.on.table), r.on.schema + '.' + r.on.table, r.on.schema);
      else if (r.on && r.on.routine) add(f.routine(r.on.schema, r.on.routine), 'routine ' + r.on.schema + '.' + r.on.routine, r.on.schema, true);
    }
    if (r.xa && (r.xa.verb === 'START' || r.xa.verb === 'PREPARE')) xaStart = r.xa.xid;
    if (r.xa && (r.xa.verb === 'COMMIT' || r.xa.verb === 'ROLLBACK') && !/ONE\s+PHASE\s*$/i.test(s.text)) {
      // Its rows are the prepared transaction's, before it in the files; prepared before the dump, they are not read.
      var was = f.xids[r.xa.xid];
      if (was) was.forEach(function (v) { verdicts.push(v); });
      else {
        unknown = unknown || { text: s.text, why: 'the XA transaction it ends is not found before it in the replay (prepared before the dump, ' +
          'or its xid not read), so its tables are not known' };
      }
    }
  });
  refuseCase(t, f);
  var names = verdicts.map(function (v) { return v.name; });
  if (unknown && (unknown.options || f.options.length)) {
    var why = unknown.options ? unknown.options.join(', ') + ' choose' + (unknown.options.length > 1 ? '' : 's') + ' which accounts are loaded'
      : f.options.join(', ') + ' leave' + (f.options.length > 1 ? '' : 's') + ' objects out of the load' + (f.scope ? ' (and ' + f.scope + ')' : '');
    throw new UserError('BINLOG_UNSUPPORTED', said('transaction ' + (t.gtid || 'at ' + t.file + ':' + t.start) + ' (' + t.file + ':' + t.start + ') holds ' +
      quoted(unknown.text) + ', and ' + unknown.why + '; ' + why + ', so whether it touches only what is loaded cannot be told. ' +
      (unknown.options ? 'Load without ' + unknown.options.join(', ') + ', or stop before it (stopBefore: "' + (t.gtid || t.file + ':' + t.start) +
        '") and replay the rest with mysqlbinlog | mysql.' : whatToDo(f, t).replace(/^./, function (c) { return c.toUpperCase(); }) + '.')),
    { file: t.file, position: t.start, gtid: t.gtid || null, options: unknown.options || f.options });
  }
  var keep = verdicts.every(function (v) { return v.loaded; }) ? true
    : verdicts.every(function (v) { return !v.loaded; }) ? (verdicts.some(function (v) { return v.object === 'account' || f.loadsSchema(v.schema); })
      ? 'notLoaded' : 'otherSchemas')
      : null;
  if (keep === null) {
    var left = verdicts.filter(function (v) { return !v.loaded; });
    var out = left.map(function (v) { return v.name; });
    var what = verdicts.some(function (v) { return v.object; }) ? 'objects' : 'tables';
    var by = [left.some(function (v) { return v.object !== 'account'; }) ? narrowing(f) : '',
      left.some(function (v) { return v.object === 'account'; }) ? f.users.join(', ') : ''].filter(Boolean).join('; ');
    throw new UserError('BINLOG_UNSUPPORTED', said('transaction ' + t.gtid + ' (' + t.file + ':' + t.start + ') changes ' + what + ' loaded and not loaded (' +
      names.join(', ') + '; not loaded: ' + out.join(', ') + ', left out by ' + by + '): it cannot be replayed in part. ' +
      'Load those too, or stop before it (stopBefore: "' + t.gtid + '").'), { file: t.file, position: t.start, gtid: t.gtid, options: f.options });
  }
  if (xaStart !== null) f.xids[xaStart] = verdicts.slice();
  // A trigger's table, for a DROP TRIGGER later (which does not name it), kept or not.
  t.statements.forEach(function (s) {
    var r = statements.read(s.text, s.schema);
    if (r && r.kind === 'trigger' && r.objects[0].table) f.triggers[r.objects[0].schema + '.' + r.objects[0].name] = r.objects[0].table;
  });
  if (keep !== true) renamed.forEach(function (n) { f.left[f.key(n)] = true; });
  if (keep === true) {
    f.counts.accounts += accounts;
    if (unknown) f.counts.unread++;
    // What the replay creates is in the load's scope from here on (a new schema of an instance's dump, a table of some tables' dump).
    t.statements.forEach(function (s) {
      var r = statements.read(s.text, s.schema);
      if (r && r.kind === 'create-database' && f.database(r.schemas[0])) f.created.schemas[f.name(r.schemas[0]).schema] = true;
      if (r) r.written.forEach(function (n) { var q = split(n); if (f.inSchema(q.schema)) f.created.tables[f.key(n)] = true; });
    });
  } else if (keep === 'notLoaded' && verdicts.every(function (v) { return v.object === 'account'; })) f.counts.accountsLeft++;
  else if (keep === 'notLoaded' && verdicts.every(function (v) { return v.object; })) f.counts.objects++;
  return keep;
}

// planReplay's "skipped" counts of what the load leaves out (f: forLoad's, or null), after its "already in the dump".
function skippedText(out, f) {
  if (!f) return '';
  return ', ' + (out.notLoaded - f.counts.objects - f.counts.accountsLeft) + ' only of tables the load leaves out' +
    (f.counts.objects ? ', ' + f.counts.objects + ' only of routines, events or triggers it leaves out (or grants on them)' : '') +
    (f.counts.accountsLeft ? ', ' + f.counts.accountsLeft + ' only of accounts it leaves out (' + f.users.join(', ') + ')' : '') +
    ', ' + out.otherSchemas + ' only of schemas it does not load';
}

// The plan's line on what leaves objects out of the replay, or null when nothing does (a whole instance, no filters).
function scopeLine(f) {
  if (!f || (!f.options.length && !f.scope)) return null;
  return '  left out of the replay: what touches only objects the load does not create (' + narrowing(f) + '); ' + (f.options.length
    ? 'a statement whose objects cannot be read is refused' : 'no load filter is given, so a statement whose objects are not read replays' +
      (f.counts.unread ? ' (' + f.counts.unread + ' of them)' : ''));
}

// The plan's line on account statements, or null when the replay holds none.
function accountLine(f) {
  if (!f || !f.counts.accounts) return null;
  return '  account statements (CREATE / ALTER / DROP USER, GRANT, REVOKE, SET PASSWORD, FLUSH PRIVILEGES): ' + f.counts.accounts +
    ' replayed, as mysqlbinlog | mysql would: accounts are the server\'s, not a schema\'s, so the load\'s table and schema filters do not ' +
    'choose them (a GRANT or REVOKE on a table or routine the load leaves out is skipped: it fails where that is not' +
    (f.users.length ? '; ' + f.users.join(' and ') + ' choose among them, as for the dump\'s' : '') + ')' +
    (f.loadUsers || !f.dumpAccounts ? '' : '; loadUsers is off, so the ' + f.dumpAccounts + ' account(s) the dump holds are not loaded, ' +
      'and a statement naming one fails on the target unless it is there');
}

module.exports = { forLoad: forLoad, keepForLoad: keepForLoad, writtenTables: writtenTables, ddlTarget: ddlTarget, skippedText: skippedText,
  accountLine: accountLine, scopeLine: scopeLine };
