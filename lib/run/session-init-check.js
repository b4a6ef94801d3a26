// The user's sessionInitSql tried before anything changes: util.loadDump runs each statement in
// every one of its sessions and stops the load at the first that fails, after the redo log was
// turned off and the settings changed. The preflight runs them, in order, on a session of its own
// on the same server (the global session's connection options, as util.loadDump's sessions), and
// refuses naming the statement and the server's error. Only a SET that stays inside its session
// is tried (anything else could change data or the server in a dry run): trying stops at the
// first statement that is not one, since a later one may depend on it.
var UserError = require('../core/user-error.js').UserError;
var atLeast = require('../options/shell-version.js').atLeast;

// Words that give a SET an effect beyond its session (SET GLOBAL / PERSIST, @@global.x, SET
// PASSWORD, SET DEFAULT ROLE, SET RESOURCE GROUP … FOR other threads).
var BEYOND = { GLOBAL: 1, PERSIST: 1, PERSIST_ONLY: 1, PASSWORD: 1, RESOURCE: 1 };

// The words of a statement outside its quoted strings, quoted names and comments (upper case);
// paren: a "(" there; more: anything but a comment after a ";" there; torn: a quote left open or
// parentheses that do not pair (a statement cut at a comma, as the command line splits a list).
function statementWords(sql) {
  var words = [], paren = false, more = false, ended = false, depth = 0, open = false;
  var i = 0, n = sql.length;
  while (i < n) {
    var c = sql[i];
    if (c === '#' || (c === '-' && sql[i + 1] === '-' && /\s/.test(sql[i + 2] || ' '))) {
      while (i < n && sql[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && sql[i + 1] === '*' && sql[i + 2] !== '!') {
      var end = sql.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
      continue;
    }
    if (/\s/.test(c)) { i++; continue; }
    if (ended) more = true;
    if (c === '\'' || c === '"' || c === '`') {
      var j = i + 1;
      while (j < n && sql[j] !== c) j += sql[j] === '\\' && c !== '`' ? 2 : 1;
      if (j >= n) open = true;
      i = j + 1;
    } else if (/[A-Za-z0-9_$]/.test(c)) {
      var w = /^[A-Za-z0-9_$]+/.exec(sql.slice(i))[0];
      words.push(w.toUpperCase());
      i += w.length;
    } else {
      // A versioned comment (/*!80000 … */) is run by the server: its words count.
      if (c === '/' && sql[i + 1] === '*') i += 2;
      if (c === '(') { paren = true; depth++; }
      if (c === ')') depth--;
      if (c === ';') ended = true;
      i++;
    }
  }
  return { words: words, paren: paren, more: more, torn: open || depth !== 0 };
}

// Why a statement is not tried before the load, or null when it is (a SET of session or user
// variables, names, a character set, the next transaction's characteristics, with plain values).
function whyNotTried(sql) {
  var s = statementWords(String(sql));
  if (s.words[0] !== 'SET') return 'not a SET statement';
  if (s.more) return 'more than one statement';
  var beyond = s.words.filter(function (w, k) {
    return BEYOND[w] || (w === 'DEFAULT' && s.words[k + 1] === 'ROLE' && k === 1);
  });
  if (beyond.length) return 'it may act beyond its session (' + (beyond[0] === 'DEFAULT' ? 'DEFAULT ROLE' : beyond[0]) + ')';
  if (s.paren) return 'it calls a function or reads a table, which may act beyond its session';
  return null;
}

// statements: the user's sessionInitSql (not the plugin's own, which lead util.loadDump's list).
// Returns {count, tried: how many ran without an error, untried: {number, why} of the first one
// not tried, or null}; throws SESSION_INIT_FAILED naming the statement that failed.
function checkSessionInit(host, statements, shellVersion) {
  var list = Array.isArray(statements) ? statements.map(String) : [];
  var result = { count: list.length, tried: 0, untried: null };
  if (!list.length) return result;
  var k = 0;
  while (k < list.length && whyNotTried(list[k]) === null) k++;
  if (k < list.length) result.untried = { number: k + 1, why: whyNotTried(list[k]) };
  if (!k) return result;
  // A session duplicating the global one's options: Shell 8.0.31+, and a host that offers it.
  var other = null;
  try {
    other = atLeast(shellVersion, '8.0.31') && host.sql.openDuplicate ? host.sql.openDuplicate() : null;
  } catch (e) {
    if (!e || !e.isSqlError) throw e;
    result.untried = { number: 1, why: 'no second session could be opened: ' + e.message };
    return result;
  }
  if (!other) {
    result.untried = { number: 1, why: 'this Shell opens no second session with the global session\'s options (8.0.31+)' };
    return result;
  }
  try {
    for (var i = 0; i < k; i++) {
      try {
        other.run(list[i]);
      } catch (e) {
        if (!e || !e.isSqlError) throw e;
        throw new UserError('SESSION_INIT_FAILED', 'sessionInitSql statement ' + (i + 1) + ' of ' + list.length + ' fails on this server: "' +
          list[i] + '": MySQL Error ' + e.code + ': ' + e.message + '. util.loadDump runs each statement in every one of its sessions ' +
          'and would stop the load at this one (tried in order on a session of the plugin\'s own, opened as util.loadDump opens ' +
          'its sessions). Fix or remove the statement' + (statementWords(list[i]).torn ? ' (it looks cut short: on the command line ' +
          'a list is split at every comma; give a statement that holds one as a JSON list, --session-init-sql=\'["…"]\')' : '') +
          '. Nothing was changed.', { option: 'sessionInitSql', statement: i + 1, errno: e.code });
      }
    }
  } finally {
    other.close();
  }
  result.tried = k;
  return result;
}

// After util.loadDump failed: what the trial before the load found, so a sessionInitSql failure
// (whose words are util.loadDump's) is read with the list's context. '' when none was given.
function trialNote(trial) {
  if (!trial || !trial.count) return '';
  var parts = [];
  if (trial.tried) {
    parts.push((trial.tried === trial.count ? (trial.count === 1 ? 'its statement' : 'its ' + trial.count + ' statements')
      : (trial.tried === 1 ? 'statement 1' : 'statements 1-' + trial.tried) + ' of ' + trial.count) +
      ' ran without an error on a session of the plugin\'s own before the load');
  }
  if (trial.untried) {
    parts.push('statement ' + trial.untried.number + (trial.untried.number < trial.count ? ' and those after it were' : ' was') +
      ' not tried before the load (' + trial.untried.why + ')');
  }
  return ' sessionInitSql: ' + parts.join('; ') + '.';
}

module.exports = { checkSessionInit: checkSessionInit, whyNotTried: whyNotTried, statementWords: statementWords, trialNote: trialNote };
