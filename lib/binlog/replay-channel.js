// What the target's own replication applier does on the applier road (replayWith "applier") in the plugin's
// stead, and what it does not and why. The feed (plugins/restore/restore_py/binlog_feed.py) passes the files'
// events unchanged; the channel's server does:
// - the stop: START REPLICA … UNTIL SQL_BEFORE_GTIDS = the first transaction past the stop (whatever the stop was
//   given as: until, a GTID, a file:position, "first drop of"), whose GTID event alone the feed sends after the
//   replay's last transaction. The coordinator stops on reading it, with one worker or many (SQL_BEFORE_GTIDS is
//   the multi-threaded applier's own; SQL_AFTER_GTIDS is not used: before MySQL 8.3 it runs single-threaded). None
//   of that transaction's rows is sent (a 1 GB DELETE, the usual mistake, costs nothing), so even an UNTIL not
//   honoured could not apply it; and it is never on the target (the preflight refuses a target holding one past
//   the stop, lib/binlog/replay-record.js; one of the dump's is not named). The stop is the plan's exactly.
// - schemaMap: CHANGE REPLICATION FILTER REPLICATE_REWRITE_DB = ((from, to), …) FOR CHANNEL rewrites every TABLE_MAP
//   event's schema and every statement's default schema, exactly as the plugin did (one exact lookup per name,
//   applied once: a swap a->b, b->a holds). It does not rewrite a name inside a statement's text (`shop`.t, CREATE
//   DATABASE shop): those statements, and only those, still have their text rewritten by the plugin
//   (lib/run/replay-rename.js), with their default schema left for the filter to map as it maps the others. With
//   lower_case_table_names 1 or 2 each new name is given in lower case, or the rename stays the plugin's (serverWork
//   says why).
// Not handed to the server: which transactions apply (the load's filters). REPLICATE_WILD_DO_TABLE /
// REPLICATE_DO_TABLE would differ from the plugin's rules (lib/binlog/replay-filter.js) and from the reference:
// - a transaction they filter out whole still commits on the target, empty, under its GTID (measured on 9.7: with
//   REPLICATE_WILD_DO_TABLE ('other.%') every GTID of the source landed, no row), where the plugin leaves it out
//   (gtid_executed would differ, and the next run would count it as applied);
// - DDL is filtered by statement rules (the tables named, the default schema for database filters), routines,
//   events and accounts not at all by table rules, where the plugin reads each statement's objects;
// - a transaction over loaded and not loaded tables would be applied in part, where the plugin refuses it.
// So the feed still serves only the transactions the plan chose (each one whole, its bytes unchanged).
var CHANNEL = 'restore_replay';

function quoteName(n) {
  return '`' + String(n).replace(/`/g, '``') + '`';
}

function quoteString(s) {
  return "'" + String(s).replace(/\\/g, '\\\\').replace(/'/g, "''") + "'";
}

// plan: planReplay's (with rewrite from lib/run/replay-rename.js: {schemaMap, schemas: the dump's schema names}); lctn:
// the target's lower_case_table_names. {until: the GTID the applier stops before, or null; next: that transaction {gtid,
// file, start, end}; rewrite: {from: to} for REPLICATE_REWRITE_DB, or null; lowered: lctn where its new names are in
// lower case; folded: lctn where the plugin keeps the rename}. With lower_case_table_names 0 the filter matches a name
// exactly, as the plugin's map does. With 1 or 2, measured on 9.7.4 (lctn 2 on a case-insensitive, case-preserving
// file system):
// - the rule matches regardless of case ((Shop, shop_copy) renamed row events naming `shop`: the TABLE_MAP events of
//   a source with lctn 1 or 2 name schemas in lower case), so a dump holding another schema of the same letters keeps
//   the plugin's rename;
// - a new name with capitals is not lowered by the server: with (Shop, Shop_copy), lctn 2's applier worker spun in
//   "Opening tables" for good (100% CPU, STOP REPLICA hung; only kill -9 ended it), lctn 1's mysqld died on an InnoDB
//   assertion (dict0dict.cc:1208). Given as `shop_copy`, the rows landed in the `Shop_copy` the load made (lctn 2
//   finds it regardless of case), equal to the source's, a compressed transaction's too;
// - the plugin's own rename (its TABLE_MAP bytes rewritten to Shop_copy) gave the same rows, but never reaches inside a
//   compressed transaction: MySQL error 1049 (Unknown database 'shop'), or, with the source's `Shop` beside the copy
//   on the target, that transaction's rows written into `Shop`, rc 0.
// Names with other than ASCII letters keep the plugin's rename: the server's lower case of them is not JS's for sure.
function serverWork(plan, lctn) {
  var map = plan.rewrite && plan.rewrite.schemaMap;
  // The log's `shop` for the dump's `Shop` (lib/run/replay-rename.js aliases: the target folds): the server's rule for
  // Shop matches it regardless of case, so it is no rule of its own (then lowerable would keep the plugin's rename).
  var aliases = (plan.rewrite && plan.rewrite.aliases) || [];
  if (map && aliases.length) {
    var own = {};
    Object.keys(map).forEach(function (k) { if (aliases.indexOf(k) < 0) own[k] = map[k]; });
    map = own;
  }
  var any = !!map && Object.keys(map).length > 0;
  var folds = Number(lctn) > 0;
  var rewrite = any && !folds ? map : null;
  if (any && folds && lowerable(map, plan.rewrite.schemas)) {
    rewrite = {};
    Object.keys(map).forEach(function (k) { rewrite[k] = map[k].toLowerCase(); });
  }
  return { until: plan.next ? plan.next.gtid : null, next: plan.next || null, rewrite: rewrite, lowered: rewrite && folds ? Number(lctn) : null,
    folded: any && !rewrite ? Number(lctn) : null };
}

// Whether the server's case-blind rule can stand for the map: every name ASCII, and no other schema of the dump
// (schemas, null: not known) spelled with the same letters as one the map renames.
function lowerable(map, schemas) {
  if (!Array.isArray(schemas)) return false;
  var ascii = /^[\x00-\x7f]*$/;
  return Object.keys(map).every(function (k) {
    return ascii.test(k) && ascii.test(map[k]) && schemas.every(function (s) { return s === k || String(s).toLowerCase() !== k.toLowerCase(); });
  });
}

// The plan line's part for it.
function workText(w) {
  var parts = [];
  if (!w) return '';
  if (w.until) parts.push('it stops by itself before ' + w.until + ', the first transaction past the stop (START REPLICA UNTIL SQL_BEFORE_GTIDS)');
  if (w.rewrite) {
    parts.push('the channel\'s filter renames the schemas (REPLICATE_REWRITE_DB ' + Object.keys(w.rewrite).map(function (k) { return k + ' -> ' + w.rewrite[k]; })
      .join(', ') + ')' + (w.lowered ? ', the new names in lower case as lower_case_table_names ' + w.lowered + ' compares them' : ''));
  }
  if (w.folded) {
    parts.push('schemaMap\'s names rewritten by the plugin, not the channel\'s filter (lower_case_table_names ' + w.folded + ': the channel\'s ' +
      'filter matches schema names regardless of case there, the plugin\'s map exactly, and the dump holds another schema of the same ' +
      'letters, or a name other than ASCII)');
  }
  return parts.length ? '; ' + parts.join('; ') : '';
}

// The statement that sets the channel's filter (the channel exists, its threads are stopped), or null.
function filterStatement(w) {
  if (!w.rewrite) return null;
  return 'CHANGE REPLICATION FILTER REPLICATE_REWRITE_DB = (' + Object.keys(w.rewrite).map(function (k) {
    return '(' + quoteName(k) + ', ' + quoteName(w.rewrite[k]) + ')';
  }).join(', ') + ") FOR CHANNEL '" + CHANNEL + "'";
}

// START REPLICA for the channel, with the stop when the server does it. until: the GTID, or null.
function startStatement(until) {
  return 'START REPLICA' + (until ? ' UNTIL SQL_BEFORE_GTIDS = ' + quoteString(until) : '') + " FOR CHANNEL '" + CHANNEL + "'";
}

// The feed's rewrite spec: the statements' texts only (TABLE_MAP events and default schemas pass unchanged, the
// channel's filter maps them), or null.
function feedRewrite(plan, w) {
  if (!plan.rewrite) return null;
  return { schemaMap: w.rewrite ? null : plan.rewrite.schemaMap };
}

// Whether the channel's applier (SQL thread) is stopped.
function applierStopped(host) {
  var rows = host.sql.run('SELECT SERVICE_STATE AS s FROM performance_schema.replication_applier_status WHERE CHANNEL_NAME = ?', [CHANNEL]).rows;
  return rows.length > 0 && String(rows[0].s) === 'OFF';
}

// After every planned transaction is applied (read before the channel is removed): what the server did, as it says
// it. The applier is given a moment to reach the transaction past the stop, which follows the last one on the
// wire. Returns {stopped (by the UNTIL), condition, filters: [{rule, counter}], text}; never throws (a line of the
// report must not fail a replay that ended: SHOW REPLICA STATUS wants REPLICATION CLIENT, which the road does not).
function whatServerDid(host, w) {
  var out = { stopped: false, condition: null, filters: [], text: '' };
  try {
    if (w.until) {
      for (var k = 0; k < 50 && !applierStopped(host); k++) host.sql.run('DO SLEEP(0.1)');
      out.stopped = applierStopped(host);
      try {
        var st = host.sql.run("SHOW REPLICA STATUS FOR CHANNEL '" + CHANNEL + "'").rows[0] || {};
        out.condition = st.Until_Condition === undefined ? null : String(st.Until_Condition);
      } catch (e) {
        out.condition = null;
      }
    }
    if (w.rewrite) {
      out.filters = host.sql.run('SELECT FILTER_RULE AS rule, COUNTER AS n FROM performance_schema.replication_applier_filters ' +
        "WHERE CHANNEL_NAME = ? AND FILTER_NAME = 'REPLICATE_REWRITE_DB'", [CHANNEL]).rows.map(function (r) { return { rule: String(r.rule), counter: Number(r.n) }; });
    }
  } catch (e) {
    return out;
  }
  var parts = [];
  var said = out.condition ? ' (Until_Condition ' + out.condition + ')' : '';
  if (w.until) {
    parts.push(out.stopped ? 'the target\'s applier stopped by itself before ' + w.until + said + ', whose GTID event it received'
      : 'the target\'s applier had not stopped by itself before ' + w.until + said + ' when every transaction was applied: the plugin stopped the channel');
  }
  out.filters.forEach(function (f) { parts.push('the channel\'s filter REPLICATE_REWRITE_DB ' + f.rule + ' was used ' + f.counter + ' time(s)'); });
  out.text = parts.join('; ');
  return out;
}

module.exports = { serverWork: serverWork, workText: workText, filterStatement: filterStatement, startStatement: startStatement,
  feedRewrite: feedRewrite, applierStopped: applierStopped, whatServerDid: whatServerDid, CHANNEL: CHANNEL };
