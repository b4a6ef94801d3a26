package restore.graalhost;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Minimal JSON for the Python companion protocol and util.* option serialisation.
 *  Shell values: null, Sh.UNDEFINED, String, Long, Double, Boolean, byte[], List, TreeMap. */
final class Json {
  private Json() {}

  static String write(Object v, boolean bytesAsB64) {
    StringBuilder sb = new StringBuilder();
    write(sb, v, bytesAsB64);
    return sb.toString();
  }

  static void write(StringBuilder sb, Object v, boolean b64) {
    if (v == null || v == Sh.UNDEFINED) sb.append("null");
    else if (v instanceof String) quote(sb, (String) v);
    else if (v instanceof Boolean) sb.append(v.toString());
    else if (v instanceof Long || v instanceof Integer) sb.append(v.toString());
    else if (v instanceof Double) {
      double d = (Double) v;
      if (Double.isNaN(d) || Double.isInfinite(d)) sb.append("null");
      else if (d == Math.rint(d) && Math.abs(d) < 1e15) sb.append((long) d);
      else sb.append(Double.toString(d));
    } else if (v instanceof byte[]) {
      if (b64) { sb.append("{\"__b64__\":"); quote(sb, Base64.getEncoder().encodeToString((byte[]) v)); sb.append('}'); }
      else quote(sb, new String((byte[]) v, java.nio.charset.StandardCharsets.ISO_8859_1));
    } else if (v instanceof List) {
      sb.append('[');
      boolean first = true;
      for (Object o : (List<?>) v) { if (!first) sb.append(','); first = false; write(sb, o, b64); }
      sb.append(']');
    } else if (v instanceof Map) {
      sb.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
        if (e.getValue() == Sh.UNDEFINED) continue;
        if (!first) sb.append(',');
        first = false;
        quote(sb, String.valueOf(e.getKey()));
        sb.append(':');
        write(sb, e.getValue(), b64);
      }
      sb.append('}');
    } else throw new Sh.ShellError("TypeError", "Cannot serialise a value of type " + Sh.typeName(v), 0);
  }

  static void quote(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"': sb.append("\\\""); break;
        case '\\': sb.append("\\\\"); break;
        case '\n': sb.append("\\n"); break;
        case '\r': sb.append("\\r"); break;
        case '\t': sb.append("\\t"); break;
        default:
          if (c < 0x20 || c == 0x2028 || c == 0x2029) sb.append(String.format("\\u%04x", (int) c));
          else sb.append(c);
      }
    }
    sb.append('"');
  }

  static Object parse(String s) {
    Parser p = new Parser(s);
    p.ws();
    Object v = p.value();
    p.ws();
    if (p.i != s.length()) throw new IllegalArgumentException("trailing JSON text");
    return v;
  }

  private static final class Parser {
    final String s;
    int i;
    Parser(String s) { this.s = s; }
    void ws() { while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++; }
    Object value() {
      char c = s.charAt(i);
      if (c == '{') {
        i++;
        TreeMap<String, Object> m = new TreeMap<>();
        ws();
        if (s.charAt(i) == '}') { i++; return m; }
        while (true) {
          ws();
          String k = str();
          ws(); i++; ws();
          m.put(k, value());
          ws();
          if (s.charAt(i++) == '}') break;
        }
        if (m.size() == 1 && m.containsKey("__b64__")) return Base64.getDecoder().decode((String) m.get("__b64__"));
        return m;
      }
      if (c == '[') {
        i++;
        List<Object> l = new ArrayList<>();
        ws();
        if (s.charAt(i) == ']') { i++; return l; }
        while (true) {
          ws();
          l.add(value());
          ws();
          if (s.charAt(i++) == ']') break;
        }
        return l;
      }
      if (c == '"') return str();
      if (s.startsWith("true", i)) { i += 4; return Boolean.TRUE; }
      if (s.startsWith("false", i)) { i += 5; return Boolean.FALSE; }
      if (s.startsWith("null", i)) { i += 4; return null; }
      int st = i;
      while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
      String n = s.substring(st, i);
      if (n.matches("-?\\d+")) {
        try { return Long.parseLong(n); } catch (NumberFormatException e) { return Double.parseDouble(n); }
      }
      return Double.parseDouble(n);
    }
    String str() {
      StringBuilder sb = new StringBuilder();
      i++;
      while (true) {
        char c = s.charAt(i++);
        if (c == '"') break;
        if (c == '\\') {
          char e = s.charAt(i++);
          switch (e) {
            case 'n': sb.append('\n'); break;
            case 'r': sb.append('\r'); break;
            case 't': sb.append('\t'); break;
            case 'b': sb.append('\b'); break;
            case 'f': sb.append('\f'); break;
            case 'u': sb.append((char) Integer.parseInt(s.substring(i, i + 4), 16)); i += 4; break;
            default: sb.append(e);
          }
        } else sb.append(c);
      }
      return sb.toString();
    }
  }
}
