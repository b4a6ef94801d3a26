'use strict';
// The stand-in loads MySQL 8 dumps into MariaDB 10.11. DDL that MySQL 8 accepts and MariaDB rejects
// is adapted here, and ONLY here, by an explicit list. Each entry is needed by a real fixture under
// ../shared/real-dumps and is tested (test/fidelity/mariadb-ddl-rewrites.test.js) to fail on
// MariaDB as written and to succeed rewritten. A statement that still fails is a load error.
//
// Checked and NOT needed (MariaDB accepts them as written): `/*!80016 DEFAULT ENCRYPTION='N' */`
// and other `/*!8xxxx … */` comments (MariaDB skips MySQL 8 versioned comments), `int`/`tinyint`
// without display width, `DEFINER=` of an account that does not exist (a note, not an error).

const REWRITES = [
  {
    id: 'collation utf8mb4_0900_ai_ci',
    why: 'MySQL 8 default collation; MariaDB 10.11 does not know it (11.4.5+ maps it to utf8mb4_uca1400_ai_ci, the same UCA 14 accent- and case-insensitive order)',
    pattern: /\butf8mb4_0900_ai_ci\b/gi,
    replacement: 'utf8mb4_uca1400_ai_ci',
    fixtures: ['fortunewalla__dvdstore__mysql_ds2', 'danielestcamar-wq__Evidencia_Proyecto-Veterinaria-SENA',
      'FedeCapo00__Database', 'Akash242005__Recipe-app__database'],
    example: 'CREATE TABLE `rw_t` (`a` varchar(5) COLLATE utf8mb4_0900_ai_ci) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci',
  },
];

// Returns { sql, applied: [ids] }.
function rewriteForMariaDb(sql) {
  let text = sql;
  const applied = [];
  for (const rw of REWRITES) {
    rw.pattern.lastIndex = 0;
    if (!rw.pattern.test(text)) continue;
    rw.pattern.lastIndex = 0;
    text = text.replace(rw.pattern, rw.replacement);
    applied.push(rw.id);
  }
  return { sql: text, applied };
}

module.exports = { REWRITES, rewriteForMariaDb };
