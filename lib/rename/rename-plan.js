// restore.load's plan for a load under other names and owners (schemaMap, definers), made in the
// preflight before anything changes: the options checked against the dump and the server, the
// files the load view writes instead of linking (renamed-files.js), the DEFINER accounts checked
// (definer-check.js), and the lines and facts for the plan and the report. The load view itself is
// lib/partial/load-view.js's.
var UserError = require('../core/user-error.js').UserError;
var schemaMap = require('../options/schema-map.js');
var parseDefiners = require('../options/definers.js').parseDefiners;
var renamedFiles = require('./renamed-files.js').renamedFiles;
var checkDefiners = require('./definer-check.js').checkDefiners;
var selection = require('../partial/selection.js');
var displayIdentifier = require('../format/display-name.js').displayIdentifier;
var existingSchemas = require('../server/server-tables.js').existingSchemas;

var MAX_LISTED = 20;

function foldsNames(host) {
  try {
    return Number(host.sql.run('SELECT @@lower_case_table_names AS l').rows[0].l) !== 0;
  } catch (e) {
    return false;
  }
}

// "procedure billing.f" -> "procedure billing.f (loaded as billing_copy.f)" when billing is renamed.
function loadedAs(object, rename) {
  var m = /^(\w+(?: of)?) (`(?:[^`]|``)*`|[A-Za-z_$][A-Za-z0-9_$]*)\.(.*)$/.exec(object);
  if (!m) return object;
  var schema = m[2][0] === '`' ? m[2].slice(1, -1).replace(/``/g, '`') : m[2];
  var to = rename(schema);
  return to === null ? object : object + ' (loaded as ' + displayIdentifier(to) + '.' + m[3] + ')';
}

function pairText(p) { return displayIdentifier(p.from) + ' -> ' + displayIdentifier(p.to); }

// ctx: load-run's preflight context; model: the dump model; sel: the selection (dump names).
// Returns {pairs, rename, definers, files, warnings, lines, facts, identity, needsView}.
function planRename(ctx, model, sel) {
  var host = ctx.host;
  var own = ctx.own;
  var pairs = schemaMap.parseSchemaMap(own.schemaMap);
  var definers = parseDefiners(own.definers);
  var lo = ctx.loadOptions;
  var ddl = lo.loadDdl !== false;
  // restore.view has no session: the server checks are restore.load's.
  var online = ctx.serverUuid !== null;
  if (pairs.length && typeof lo.schema === 'string' && lo.schema !== '') {
    throw new UserError('OPTION_CONFLICT', 'schemaMap and util.loadDump\'s schema option both rename: use schemaMap alone (e.g. ' +
      'schemaMap: {"' + pairs[0].from + '": "' + lo.schema + '"}).');
  }
  var dumpSchemas = model.schemas.map(function (s) { return s.schema; });
  var loaded = dumpSchemas.filter(function (s) { return selection.isSchemaChosen(sel, s); });
  schemaMap.checkAgainstDump(pairs, dumpSchemas, loaded, pairs.length && online ? foldsNames(host) : false);
  var rename = schemaMap.renamer(pairs);
  var lines = [];
  var warnings = [];
  var facts = { schemaMap: pairs.map(function (p) { return { from: p.from, to: p.to }; }), definers: definers.mode === 'account'
    ? definers.sql : definers.mode };
  var targets = pairs.filter(function (p) { return loaded.indexOf(p.from) >= 0; });
  if (pairs.length) {
    var exists = online ? existingSchemas(host, targets.map(function (p) { return p.to; })) : [];
    if (exists.length && !own.dropExisting) {
      throw new UserError('SCHEMA_EXISTS', 'schemaMap loads into ' + exists.map(displayIdentifier).join(', ') + ', which exist' +
        (exists.length === 1 ? 's' : '') + ' on this server already. Choose a new name, or pass dropExisting: true to ' +
        'drop the objects the load creates there first (never the schema itself). Nothing was changed.');
    }
    lines.push('Schema map: ' + targets.map(pairText).join(', ') + (targets.length < pairs.length ? ' (' +
      pairs.filter(function (p) { return targets.indexOf(p) < 0; }).map(function (p) { return p.from; }).join(', ') +
      ' not loaded: left out by the filters)' : '') + '; other schemas keep their names. Options name schemas as the dump ' +
      'does (latest, includeTables, mask…)' + (exists.length ? '; ' + exists.join(', ') + ' exist: dropExisting drops the ' +
      'objects the load creates there' : ''));
  }
  var r = renamedFiles(host, model, { pairs: pairs, rename: rename, definers: definers }, sel);
  // Objects as the dump names them, with the name they are loaded as.
  r.warnings.forEach(function (w) { warnings.push((w.object ? loadedAs(w.object, rename) + ': ' : '') + w.message); });
  if (definers.mode !== 'keep') {
    var changed = r.definers.length;
    lines.push('Definers: ' + (definers.mode === 'strip' ? 'DEFINER clauses removed from ' + changed + ' object(s): they ' +
      'get the loading account' : definers.mode === 'current' ? changed + ' DEFINER clause(s) set to CURRENT_USER (the ' +
      'loading account)' : changed + ' DEFINER clause(s) set to ' + definers.sql) + '; SQL SECURITY kept');
  }
  var check = ddl && online ? checkDefiners(host, definers.mode === 'keep' ? r.definers : [], definers, own.force)
    : { lines: [], warnings: [], accounts: [] };
  lines = lines.concat(check.lines);
  facts.definerAccounts = check.accounts;
  if (r.grants.length) {
    var accounts = [];
    r.grants.forEach(function (g) { if (accounts.indexOf(g.account) < 0) accounts.push(g.account); });
    var loadUsers = lo.loadUsers === true;
    lines.push('Accounts of the dump with grants on renamed schemas: ' + accounts.slice(0, MAX_LISTED).join(', ') +
      (accounts.length > MAX_LISTED ? ', …' : '') + '. ' + (loadUsers ? 'loadUsers: their ' + r.grants.length + ' GRANT/' +
      'REVOKE statement(s) on ' + targets.map(function (p) { return p.from; }).join(', ') + ' are loaded for the new names ' +
      '(' + targets.map(function (p) { return p.to; }).join(', ') + ')' : 'Accounts are not loaded (loadUsers is off): ' +
      'nobody gets grants on the new names; GRANT them yourself where needed'));
    facts.grants = { accounts: accounts, statements: r.grants.length, loaded: loadUsers };
  }
  facts.rewrittenFiles = r.files.map(function (f) { return f.name; });
  facts.warnings = warnings.slice();
  facts.definerWarnings = check.warnings.slice();
  var needsView = r.files.length > 0;
  if (needsView) {
    lines.push('The load view writes ' + r.files.length + ' rewritten metadata/DDL file(s) of its own; data files are ' +
      'links to the dump\'s, under their own names (util.loadDump finds them by the base names in the metadata)');
  }
  return {
    pairs: pairs, rename: pairs.length ? rename : null, definers: definers, files: r.files, warnings: warnings,
    definerWarnings: check.warnings, lines: lines,
    facts: facts, needsView: needsView,
    identity: needsView ? JSON.stringify([pairs, definers.mode, definers.sql || null]) : null,
  };
}

module.exports = { planRename: planRename };
