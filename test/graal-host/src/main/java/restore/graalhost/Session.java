package restore.graalhost;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.proxy.ProxyArray;
import restore.graalhost.Sh.ShellError;

/** A ClassicSession-like global session over Connector/J (mod_mysql_session.cc runSql,
 *  base_session.cc placeholder substitution, mod_mysql_resultset.cc, base_resultset.cc Row). */
final class Session extends Sh.HostObject {
  final String uri;
  final String user, host;
  final int port;
  Connection conn;
  Result current;

  Session(String uri) { this(uri, null); }

  /** mysql.getClassicSession(uri, password): the second argument, when given, is the password. */
  Session(String uri, String givenPassword) {
    this.uri = uri;
    java.util.regex.Matcher m = java.util.regex.Pattern
        .compile("^(?:mysql://)?([^:@/]+)(?::([^@]*))?@([^:/?]+)(?::(\\d+))?.*$").matcher(uri);
    if (!m.matches()) throw new ShellError("ArgumentError", "Invalid URI: " + uri, 0);
    user = m.group(1);
    String password = givenPassword != null ? givenPassword : m.group(2) == null ? "" : m.group(2);
    host = m.group(3);
    port = m.group(4) == null ? 3306 : Integer.parseInt(m.group(4));
    try {
      conn = DriverManager.getConnection("jdbc:mysql://" + host + ":" + port + "/?sslMode=DISABLED"
          + "&allowPublicKeyRetrieval=true&zeroDateTimeBehavior=CONVERT_TO_NULL&useUnicode=true"
          + "&characterEncoding=UTF-8&connectionTimeZone=LOCAL&yearIsDateType=false&tinyInt1isBit=false", user, password);
    } catch (SQLException e) {
      throw new ShellError("MySQL Error", e.getMessage(), e.getErrorCode());
    }
    fn("runSql", a -> runSql(a));
    fn("isOpen", a -> isOpen());
    fn("getUri", a -> "mysql://" + user + "@" + host + ":" + port);
    members.put("uri", (java.util.function.Supplier<Object>) () -> "mysql://" + user + "@" + host + ":" + port);
    fn("close", a -> { try { conn.close(); } catch (SQLException e) { } return null; });
  }

  @Override public String className() { return "ClassicSession"; }

  boolean isOpen() {
    try { return conn != null && !conn.isClosed(); } catch (SQLException e) { return false; }
  }

  Result runSql(List<Object> a) {
    if (a.isEmpty() || !(a.get(0) instanceof String)) throw new ShellError("TypeError", "Argument #1 is expected to be a string", 0);
    String sql = (String) a.get(0);
    if (a.size() > 1 && a.get(1) != Sh.UNDEFINED) {
      if (!(a.get(1) instanceof List)) throw new ShellError("TypeError", "Argument #2 is expected to be an array", 0);
      sql = substitute(sql, Sh.castList(a.get(1)));
    }
    if (sql.trim().isEmpty()) throw new ShellError("ArgumentError", "No query specified.", 0);
    if (!isOpen()) throw new ShellError("LogicError", "Not connected.", 0);
    // A classic session streams one result at a time: a new query discards the rows the previous
    // result had not fetched yet (seen with the real 9.1 Shell: an outer fetchOne() loop that runs
    // runSql inside ends after its first row).
    if (current != null) current.pos = current.rows.size();
    try (Statement st = conn.createStatement()) {
      boolean hasRs = st.execute(sql);
      Result r = new Result();
      if (hasRs) {
        try (ResultSet rs = st.getResultSet()) {
          ResultSetMetaData md = rs.getMetaData();
          for (int i = 1; i <= md.getColumnCount(); i++) r.columns.add(md.getColumnLabel(i));
          while (rs.next()) {
            List<Object> row = new ArrayList<>();
            for (int i = 1; i <= md.getColumnCount(); i++) row.add(value(rs, md, i));
            r.rows.add(row);
          }
        }
        r.affected = -1;
      } else {
        r.affected = st.getUpdateCount();
        r.insertId = ((com.mysql.cj.jdbc.StatementImpl) st).getLastInsertID();
      }
      current = r;
      java.sql.SQLWarning w = st.getWarnings();
      while (w != null) { r.warnings++; w = w.getNextWarning(); }
      return r;
    } catch (SQLException e) {
      // mysql_error_with_code_and_state: type "MySQL Error", the server message, code
      throw new ShellError("MySQL Error", e.getMessage(), e.getErrorCode());
    }
  }

  private static Object value(ResultSet rs, ResultSetMetaData md, int i) throws SQLException {
    int t = md.getColumnType(i);
    switch (t) {
      case Types.TINYINT: case Types.SMALLINT: case Types.INTEGER: case Types.BIGINT: {
        String s = rs.getString(i);
        if (s == null) return null;
        try { return Long.parseLong(s); } catch (NumberFormatException e) { return Double.parseDouble(s); }
      }
      case Types.BIT: { byte[] b = rs.getBytes(i); if (b == null) return null; long v = 0; for (byte x : b) v = (v << 8) | (x & 0xff); return v; }
      case Types.FLOAT: case Types.REAL: case Types.DOUBLE: { double d = rs.getDouble(i); return rs.wasNull() ? null : (Object) d; }
      case Types.DATE: case Types.TIMESTAMP: {
        java.time.LocalDateTime dt = rs.getObject(i, java.time.LocalDateTime.class);
        if (dt == null) return null;
        return new Sh.ShellDate(dt.getYear(), dt.getMonthValue(), dt.getDayOfMonth(), dt.getHour(), dt.getMinute(),
            dt.getSecond(), dt.getNano() / 1_000_000);
      }
      case Types.BINARY: case Types.VARBINARY: case Types.LONGVARBINARY: case Types.BLOB:
        return rs.getBytes(i);
      default:
        return rs.getString(i);
    }
  }

  /** Client-side placeholders: '?' a value, '!' an identifier; quotes and comments skipped. */
  static String substitute(String sql, List<Object> args) {
    StringBuilder out = new StringBuilder();
    int next = 0;
    for (int i = 0; i < sql.length(); i++) {
      char c = sql.charAt(i);
      if (c == '\'' || c == '"' || c == '`') {
        int j = i + 1;
        while (j < sql.length() && sql.charAt(j) != c) { if (sql.charAt(j) == '\\' && c != '`') j++; j++; }
        out.append(sql, i, Math.min(j + 1, sql.length()));
        i = j;
      } else if (c == '-' && sql.startsWith("-- ", i) || c == '#') {
        int j = sql.indexOf('\n', i);
        if (j < 0) j = sql.length() - 1;
        out.append(sql, i, j + 1);
        i = j;
      } else if (c == '/' && sql.startsWith("/*", i)) {
        int j = sql.indexOf("*/", i + 2);
        j = j < 0 ? sql.length() - 1 : j + 1;
        out.append(sql, i, j + 1);
        i = j;
      } else if (c == '?' || c == '!') {
        if (next >= args.size()) {
          throw new ShellError("ArgumentError", "Insufficient number of values for placeholders in query", 0);
        }
        Object v = args.get(next++);
        if (c == '!') {
          if (!(v instanceof String)) throw new ShellError("ArgumentError", "Error formatting SQL query: invalid escape for numeric argument while substituting placeholder value at index #" + (next - 1), 0);
          out.append('`').append(((String) v).replace("`", "``")).append('`');
        } else out.append(literal(v, next - 1));
      } else out.append(c);
    }
    if (next < args.size()) {
      throw new ShellError("ArgumentError", "Error formatting SQL query: more arguments than escapes while substituting placeholder value at index #" + next, 0);
    }
    return out.toString();
  }

  private static String literal(Object v, int index) {
    if (v == null || v == Sh.UNDEFINED) return "NULL";
    if (v instanceof Boolean) return ((Boolean) v) ? "1" : "0";
    if (v instanceof Long) return v.toString();
    if (v instanceof Double) { double d = (Double) v; return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d); }
    String s = v instanceof byte[] ? new String((byte[]) v, java.nio.charset.StandardCharsets.ISO_8859_1) : v instanceof String ? (String) v : null;
    if (s == null) throw new ShellError("TypeError", "Invalid type for placeholder value at index #" + index, 0);
    StringBuilder sb = new StringBuilder("'");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '\'': sb.append("\\'"); break;
        case '\\': sb.append("\\\\"); break;
        case '\0': sb.append("\\0"); break;
        case '\n': sb.append("\\n"); break;
        case '\r': sb.append("\\r"); break;
        case 26: sb.append("\\Z"); break;
        default: sb.append(c);
      }
    }
    return sb.append('\'').toString();
  }

  /** ClassicResult. */
  static final class Result extends Sh.HostObject {
    final List<String> columns = new ArrayList<>();
    final List<List<Object>> rows = new ArrayList<>();
    long affected, insertId, warnings;
    int pos;
    Result() {
      fn("getColumnNames", a -> new ArrayList<Object>(columns));
      fn("getColumnCount", a -> (long) columns.size());
      fn("fetchOne", a -> pos < rows.size() ? new Row(columns, rows.get(pos++)) : null);
      fn("fetchOneObject", a -> {
        if (pos >= rows.size()) return null;
        TreeMap<String, Object> m = new TreeMap<>();
        List<Object> r = rows.get(pos++);
        for (int i = 0; i < columns.size(); i++) m.put(columns.get(i), r.get(i));
        return m;
      });
      fn("fetchAll", a -> { List<Object> l = new ArrayList<>(); while (pos < rows.size()) l.add(new Row(columns, rows.get(pos++))); return l; });
      fn("getAffectedItemsCount", a -> affected < 0 ? 0L : affected);
      fn("getAutoIncrementValue", a -> insertId);
      fn("getWarningsCount", a -> warnings);
      fn("getWarnings", a -> new ArrayList<Object>());
      fn("hasData", a -> !columns.isEmpty());
      fn("nextResult", a -> false);
      fn("getExecutionTime", a -> "0.0000 sec");
    }
    @Override public String className() { return "ClassicResult"; }
  }

  /** Row: index access, length, getField, named fields (indexed object wrapper). */
  static final class Row extends Sh.HostObject implements ProxyArray {
    final List<String> columns;
    final List<Object> values;
    Row(List<String> columns, List<Object> values) {
      this.columns = columns;
      this.values = values;
      val("length", (long) values.size());
      fn("getField", a -> {
        int i = columns.indexOf(String.valueOf(a.get(0)));
        if (i < 0) throw new ShellError("ArgumentError", "Field " + a.get(0) + " does not exist", 0);
        return values.get(i);
      });
      for (int i = 0; i < columns.size(); i++) {
        String c = columns.get(i);
        final int at = i;
        if (c.matches("[_a-zA-Z][_a-zA-Z0-9]*") && !members.containsKey(c) && !"help".equals(c)) {
          members.put(c, (java.util.function.Supplier<Object>) () -> values.get(at));
        }
      }
    }
    @Override public String className() { return "Row"; }
    @Override public Object get(long index) { return index < values.size() ? Sh.toJs(values.get((int) index)) : null; }
    @Override public void set(long index, Value value) { }
    @Override public long getSize() { return values.size(); }
  }
}
