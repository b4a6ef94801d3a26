package restore.graalhost;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.SourceSection;
import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.proxy.ProxyArray;
import org.graalvm.polyglot.proxy.ProxyExecutable;
import org.graalvm.polyglot.proxy.ProxyObject;

/**
 * "shcore::Value" model and the conversions between it and GraalJS values, following
 * polyglot_type_conversion.cc (Polyglot_type_bridger::poly_value_to_native_value /
 * native_value_to_poly_value) and shell_javascript.cc (to_native_object, native_array,
 * native_object). Shell values: null (Null), UNDEFINED, String, Long, Double, Boolean,
 * byte[] (Binary), List (Array), TreeMap (Map: std::map, so keys sorted), ShellFunction,
 * ShellObject (host objects: extension objects, sessions, results, rows, dates).
 * Every conversion TO JavaScript happens in the MAIN context, as the Shell does (the
 * language's context(): Polyglot_language::convert / Java_script_interface::array_buffer).
 */
final class Sh {
  private Sh() {}

  static final Object UNDEFINED = new Object() { @Override public String toString() { return "undefined"; } };

  /** A Shell error: type ("ArgumentError", "TypeError", "RuntimeError", "MySQL Error", ...), message, code. */
  static final class ShellError extends RuntimeException {
    final String type;
    final long code;
    ShellError(String type, String message, long code) { super(message); this.type = type; this.code = code; }
    TreeMap<String, Object> data() {
      TreeMap<String, Object> m = new TreeMap<>();
      m.put("type", type);
      m.put("message", getMessage());
      if (code != 0) m.put("code", code);
      return m;
    }
  }

  interface ShellFunction { Object invoke(List<Object> args); }

  /** Host objects exposed to JS through a proxy (mysqlsh: Polyglot_object_wrapper). */
  interface ShellObject { String className(); }

  static Context main;              // the main JS context (set by Runtime)
  private static Value mkBuffer;    // main-context helper: latin1 string -> ArrayBuffer
  private static Value mkError;     // main-context helper: throws Error(msg, {cause})
  private static Value mkDate;
  private static Value undefinedValue;

  static void init(Context mainContext) {
    main = mainContext;
    mkBuffer = main.eval("js", "(function (s) { var b = new ArrayBuffer(s.length); var u = new Uint8Array(b);"
        + " for (var i = 0; i < s.length; i++) u[i] = s.charCodeAt(i); return b; })");
    // polyglot_javascript.cc create_exception_object: Error(<message>, {cause: <data map>})
    mkError = main.eval("js", "(function (m, c) { throw Error(m, {cause: c}); })");
    mkDate = main.eval("js", "(function (y, mo, d, h, mi, s, ms) { return new Date(y, mo, d, h, mi, s, ms); })");
    undefinedValue = main.eval("js", "undefined");
  }

  // ------------------------------------------------------------------ JS -> shell
  static Object toShell(Value v) {
    if (v == null) return UNDEFINED;
    if (v.isNull()) return "undefined".equals(v.toString()) ? UNDEFINED : null;
    if (v.isString()) return v.asString();
    if (v.isNumber()) return v.fitsInLong() ? (Object) v.asLong() : (Object) v.asDouble();
    if (v.isBoolean()) return v.asBoolean();
    if (v.isProxyObject()) {
      Object p = v.asProxyObject();
      if (p instanceof MapProxy) return ((MapProxy) p).map;
      if (p instanceof ArrayProxy) return ((ArrayProxy) p).list;
      if (p instanceof FunctionProxy) return ((FunctionProxy) p).fn;
      if (p instanceof ObjectProxy) return ((ObjectProxy) p).target;
      if (p instanceof ShellObject) return p;
    }
    if (v.hasBufferElements()) {            // is_array_buffer: poly_value_is_buffer
      int n = (int) v.getBufferSize();
      byte[] b = new byte[n];
      for (int i = 0; i < n; i++) b[i] = v.readBufferByte(i);
      return b;
    }
    Value meta = v.getMetaObject();
    String cls = meta == null ? "" : meta.getMetaSimpleName();
    if (v.isDate() && v.isTime()) return v; // kept as a JS value (rare on this path)
    if (v.isException() || "Error".equals(cls)) {
      // to_native_object "Error": the cause if it is a map, else the message
      Value cause = v.getMember("cause");
      Object c = toShell(cause);
      if (c != null && c != UNDEFINED && !(c instanceof Map)) return toShell(v.getMember("message"));
      return c;
    }
    if (v.hasArrayElements()) {
      List<Object> l = new ArrayList<>();
      long n = v.getArraySize();
      for (long i = 0; i < n; i++) l.add(toShell(v.getArrayElement(i)));
      return l;
    }
    if (v.canExecute()) return new JsFunction(v);
    if (v.hasMembers()) {
      TreeMap<String, Object> m = new TreeMap<>();
      for (String k : v.getMemberKeys()) m.put(k, toShell(v.getMember(k)));
      return m;
    }
    throw new ShellError("TypeError", "Cannot convert value to shell value: " + v, 0);
  }

  // ------------------------------------------------------------------ shell -> JS (main context)
  static Object toJs(Object o) {
    if (o == UNDEFINED) return undefinedValue;
    if (o == null || o instanceof String || o instanceof Boolean || o instanceof Long
        || o instanceof Integer || o instanceof Double) return o;
    if (o instanceof byte[]) return mkBuffer.execute(new String((byte[]) o, StandardCharsets.ISO_8859_1));
    if (o instanceof Value) return o;
    if (o instanceof List) return new ArrayProxy(castList(o));
    if (o instanceof TreeMap) return new MapProxy(castMap(o));
    if (o instanceof ShellFunction) return new FunctionProxy((ShellFunction) o);
    if (o instanceof ShellDate) {
      ShellDate d = (ShellDate) o;
      return mkDate.execute(d.y, d.mo - 1, d.d, d.h, d.mi, d.s, d.ms);
    }
    if (o instanceof ShellObject) return ((ShellObject) o) instanceof ProxyObject ? o : new ObjectProxy((ShellObject) o);
    throw new IllegalStateException("no JS form for " + o.getClass());
  }

  @SuppressWarnings("unchecked") static List<Object> castList(Object o) { return (List<Object>) o; }
  @SuppressWarnings("unchecked") static TreeMap<String, Object> castMap(Object o) { return (TreeMap<String, Object>) o; }

  static List<Object> args(Value... vs) {
    List<Object> l = new ArrayList<>();
    for (Value v : vs) l.add(toShell(v));
    return l;
  }

  /** Throws a Shell error into JavaScript the way GraalJS builds do: an Error made in the main
   *  context whose cause is the error data map (polyglot_language.cc throw_exception_object). */
  static RuntimeException jsError(ShellError e) {
    try {
      mkError.execute(e.getMessage(), new MapProxy(e.data()));
    } catch (PolyglotException pe) {
      return pe;
    }
    return new IllegalStateException("unreachable");
  }

  /** Wraps a host callback: shell errors become thrown JS errors. */
  static Object guard(java.util.function.Supplier<Object> body) {
    try {
      return body.get();
    } catch (ShellError e) {
      throw jsError(e);
    }
  }

  /** A JS function kept as a shell function (Polyglot_function): called with arguments converted in
   *  the main context; its exceptions become ScriptingError (types_polyglot.cc invoke). */
  static final class JsFunction implements ShellFunction {
    final Value fn;
    JsFunction(Value fn) { this.fn = fn; }
    @Override public Object invoke(List<Object> args) {
      Object[] a = new Object[args.size()];
      for (int i = 0; i < a.length; i++) a[i] = toJs(args.get(i));
      try {
        return toShell(fn.execute(a));
      } catch (PolyglotException pe) {
        throw fromPolyglot(pe);
      }
    }
  }

  /** Polyglot_error: a thrown Error whose cause is a shell map keeps its type/message/code;
   *  anything else becomes "<message> (<Type>)\n at <source>:<line>:<col>" as a ScriptingError. */
  static ShellError fromPolyglot(PolyglotException pe) {
    if (pe.isHostException() && pe.asHostException() instanceof ShellError) return (ShellError) pe.asHostException();
    if (pe.isGuestException()) {
      Value obj = pe.getGuestObject();
      if (obj != null && obj.hasMembers()) {
        Value cause = obj.getMember("cause");
        if (cause != null && cause.isProxyObject() && cause.asProxyObject() instanceof MapProxy) {
          Map<String, Object> d = ((MapProxy) cause.asProxyObject()).map;
          Object code = d.get("code");
          return new ShellError(String.valueOf(d.getOrDefault("type", "ScriptingError")),
              String.valueOf(d.get("message")), code instanceof Number ? ((Number) code).longValue() : 0);
        }
      }
    }
    String msg = pe.getMessage() == null ? "" : pe.getMessage();
    String type = null;
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("^(\\w*Error):\\s([\\s\\S]*)$").matcher(msg);
    if (m.matches()) { type = m.group(1); msg = m.group(2); }
    StringBuilder sb = new StringBuilder(msg);
    if (type != null) sb.append(" (").append(type).append(")\n");
    SourceSection at = pe.getSourceLocation();
    if (at != null && at.getSource() != null) {
      sb.append(" at ").append(at.getSource().getName()).append(':').append(at.getStartLine())
          .append(':').append(at.getStartColumn());
    }
    return new ShellError("ScriptingError", sb.toString().replaceAll("\\s+$", ""), 0);
  }

  static String typeName(Object v) {
    if (v == null) return "Null";
    if (v == UNDEFINED) return "Undefined";
    if (v instanceof String) return "String";
    if (v instanceof Long || v instanceof Integer) return "Integer";
    if (v instanceof Double) return "Float";
    if (v instanceof Boolean) return "Bool";
    if (v instanceof byte[]) return "Binary";
    if (v instanceof List) return "Array";
    if (v instanceof Map) return "Map";
    if (v instanceof ShellFunction) return "Function";
    return "Object";
  }

  // ------------------------------------------------------------------ wrappers (proxies)
  /** Polyglot_map_wrapper: a dictionary seen from JS; values converted on each access. */
  static final class MapProxy implements ProxyObject {
    final TreeMap<String, Object> map;
    MapProxy(TreeMap<String, Object> map) { this.map = map; }
    @Override public Object getMember(String key) { return map.containsKey(key) ? toJs(map.get(key)) : null; }
    @Override public Object getMemberKeys() { return ProxyArray.fromArray(map.keySet().toArray()); }
    @Override public boolean hasMember(String key) { return map.containsKey(key); }
    @Override public void putMember(String key, Value value) { map.put(key, toShell(value)); }
    @Override public boolean removeMember(String key) { return map.remove(key) != null || true; }
  }

  /** Polyglot_array_wrapper. */
  static final class ArrayProxy implements ProxyArray {
    final List<Object> list;
    ArrayProxy(List<Object> list) { this.list = list; }
    @Override public Object get(long index) { return index < list.size() ? toJs(list.get((int) index)) : null; }
    @Override public void set(long index, Value value) {
      while (list.size() <= index) list.add(UNDEFINED);
      list.set((int) index, toShell(value));
    }
    @Override public boolean remove(long index) { list.remove((int) index); return true; }
    @Override public long getSize() { return list.size(); }
  }

  /** Polyglot_function_wrapper. */
  static final class FunctionProxy implements ProxyExecutable {
    final ShellFunction fn;
    FunctionProxy(ShellFunction fn) { this.fn = fn; }
    @Override public Object execute(Value... a) { return guard(() -> toJs(fn.invoke(args(a)))); }
  }

  /** A host object whose members are functions or values (Polyglot_object_wrapper). */
  abstract static class HostObject implements ShellObject, ProxyObject {
    protected final java.util.LinkedHashMap<String, Object> members = new java.util.LinkedHashMap<>();
    protected void fn(String name, ShellFunction f) { members.put(name, new FunctionProxy(f)); }
    protected void val(String name, Object v) { members.put(name, v); }
    @Override public Object getMember(String key) {
      Object v = members.get(key);
      if (v instanceof java.util.function.Supplier) return toJs(((java.util.function.Supplier<?>) v).get());
      if (v instanceof FunctionProxy || v instanceof ProxyObject || v instanceof Value) return v;
      return v == null ? null : toJs(v);
    }
    @Override public Object getMemberKeys() { return ProxyArray.fromArray(members.keySet().toArray()); }
    @Override public boolean hasMember(String key) { return members.containsKey(key); }
    @Override public void putMember(String key, Value value) {
      throw new UnsupportedOperationException("read-only member " + key);
    }
    @Override public String toString() { return "<" + className() + ">"; }
  }

  /** Fallback wrapper for ShellObjects that are not proxies themselves. */
  static final class ObjectProxy implements ProxyObject {
    final ShellObject target;
    ObjectProxy(ShellObject t) { target = t; }
    @Override public Object getMember(String key) { return null; }
    @Override public Object getMemberKeys() { return ProxyArray.fromArray(); }
    @Override public boolean hasMember(String key) { return false; }
    @Override public void putMember(String key, Value value) { }
  }

  /** shcore Date (mod_utils.cc: DATE/DATETIME become JS Date from local-time components). */
  static final class ShellDate implements ShellObject {
    final int y, mo, d, h, mi, s, ms;
    ShellDate(int y, int mo, int d, int h, int mi, int s, int ms) {
      this.y = y; this.mo = mo; this.d = d; this.h = h; this.mi = mi; this.s = s; this.ms = ms;
    }
    @Override public String className() { return "Date"; }
  }

  static String descr(Object v) {  // Value::descr(true) (types.cc), close enough for println
    if (v == null) return "null";
    if (v == UNDEFINED) return "undefined";
    if (v instanceof String) return (String) v;
    return descrNested(v, 0);
  }

  static String descrNestedPublic(Object v) { return descrNested(v, 0); }

  private static String descrNested(Object v, int depth) {
    String ind = "    ".repeat(depth + 1), end = "    ".repeat(depth);
    if (v == null) return "null";
    if (v == UNDEFINED) return "undefined";
    if (v instanceof String) { StringBuilder sb = new StringBuilder(); Json.quote(sb, (String) v); return sb.toString(); }
    if (v instanceof Double) {
      double d = (Double) v;
      return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
    }
    if (v instanceof byte[]) {
      StringBuilder sb = new StringBuilder();
      for (byte b : (byte[]) v) sb.append(String.format("%02x", b & 0xff));
      return sb.toString();
    }
    if (v instanceof List) {
      List<?> l = (List<?>) v;
      if (l.isEmpty()) return "[]";
      StringBuilder sb = new StringBuilder("[\n");
      for (int i = 0; i < l.size(); i++) {
        sb.append(ind).append(descrNested(l.get(i), depth + 1));
        sb.append(i + 1 < l.size() ? ", \n" : "\n");
      }
      return sb.append(end).append(']').toString();
    }
    if (v instanceof Map) {
      Map<?, ?> m = (Map<?, ?>) v;
      if (m.isEmpty()) return "{}";
      StringBuilder sb = new StringBuilder("{\n");
      int i = 0;
      for (Map.Entry<?, ?> e : m.entrySet()) {
        StringBuilder k = new StringBuilder();
        Json.quote(k, String.valueOf(e.getKey()));
        sb.append(ind).append(k).append(": ").append(descrNested(e.getValue(), depth + 1));
        sb.append(++i < m.size() ? ", \n" : "\n");
      }
      return sb.append(end).append('}').toString();
    }
    if (v instanceof ShellObject) return "<" + ((ShellObject) v).className() + ">";
    if (v instanceof ShellFunction) return "<Function>";
    return String.valueOf(v);
  }
}
