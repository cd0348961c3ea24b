package io.flinkivm.sql.catalog;

import io.flinkivm.core.plan.Planner;
import io.flinkivm.flink.IvmOptions;
import io.flinkivm.flink.WindowEmit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.util.TimeUtils;

/**
 * The {@code options} argument of the catalog's procedures: {@code 'name=value, name=value'}, each name one
 * of {@link #KNOWN}, a value that holds commas in parentheses ({@code primary-key.lineitem=(l_orderkey,
 * l_linenumber)}). The names are those of {@link IvmOptions} and of the command line ({@code --snapshot-every},
 * {@code --state}); an unknown name, a repeated one or a value that does not parse is a {@link
 * ValidationException} that lists what is known.
 *
 * @param ivm the settings that map onto {@link IvmOptions}
 * @param triggers whether {@code snapshot-every} or {@code snapshot-period} was given
 * @param stateBackend the job's state backend ({@code hashmap} or {@code rocksdb}), null for the session's
 * @param deadLetters the table the rejected rows go to, null for the TaskManagers' standard error
 */
@Internal
public record ViewOptions(IvmOptions ivm, boolean triggers, String stateBackend, String deadLetters) {

    /** The option names, as an error message lists them. */
    public static final List<String> KNOWN = List.of(
            "dead-letters",
            "managed-state",
            "mini-batch",
            "parallelism",
            "primary-key.<table>",
            "row-check",
            "snapshot-every",
            "snapshot-period",
            "state",
            "strategy",
            "uid-prefix",
            "update-before",
            "window-emit");

    private static final String PRIMARY_KEY = "primary-key.";

    /** No option given: {@link IvmOptions#defaults()}, the session's state backend, dead letters to stderr. */
    public static ViewOptions none() {
        return new ViewOptions(IvmOptions.defaults(), false, null, null);
    }

    /**
     * Parses {@code text} (null or blank: {@link #none()}).
     *
     * @throws ValidationException for an unknown or repeated name, an entry without {@code =}, or a value that
     *     does not parse, with the known names
     */
    public static ViewOptions parse(String text) {
        ViewOptions out = none();
        if (text == null || text.isBlank()) {
            return out;
        }
        Map<String, String> entries = new LinkedHashMap<>();
        for (String entry : split(text)) {
            int eq = entry.indexOf('=');
            if (eq <= 0) {
                throw error("'" + entry.strip() + "' is not name=value");
            }
            String name = entry.substring(0, eq).strip().toLowerCase(Locale.ROOT);
            if (entries.put(name, entry.substring(eq + 1).strip()) != null) {
                throw error("option " + name + " is given twice");
            }
        }
        for (Map.Entry<String, String> e : entries.entrySet()) {
            out = out.with(e.getKey(), e.getValue());
        }
        return out;
    }

    private ViewOptions with(String name, String value) {
        if (name.startsWith(PRIMARY_KEY) && name.length() > PRIMARY_KEY.length()) {
            List<String> columns = columns(name, value);
            return copy(ivm.withPrimaryKey(name.substring(PRIMARY_KEY.length()), columns.toArray(new String[0])));
        }
        try {
            return switch (name) {
                case "snapshot-every" ->
                    new ViewOptions(ivm.withSnapshotEvery(positiveLong(name, value)), true, stateBackend, deadLetters);
                case "snapshot-period" ->
                    new ViewOptions(ivm.withSnapshotPeriod(duration(name, value)), true, stateBackend, deadLetters);
                case "parallelism" -> copy(ivm.withParallelism((int) positiveLong(name, value)));
                case "mini-batch" -> copy(ivm.withMiniBatch((int) positiveLong(name, value)));
                case "strategy" -> copy(ivm.withStrategy(strategy(value)));
                case "managed-state" -> copy(ivm.withManagedState(bool(name, value)));
                case "state-ttl" -> copy(ivm.withStateTtl(duration(name, value)));
                case "row-check" -> copy(ivm.withRowCheck(bool(name, value)));
                case "update-before" -> copy(ivm.withUpdateBefore(bool(name, value)));
                case "window-emit" -> copy(ivm.withWindowEmit(windowEmit(value)));
                case "uid-prefix" -> copy(ivm.withUidPrefix(nonEmpty(name, value)));
                case "state" -> new ViewOptions(ivm, triggers, stateBackend(value), deadLetters);
                case "dead-letters" -> new ViewOptions(ivm, triggers, stateBackend, nonEmpty(name, value));
                default -> throw error("unknown option " + name);
            };
        } catch (IllegalArgumentException e) {
            // IvmOptions' own checks.
            throw error(name + ": " + e.getMessage());
        }
    }

    private ViewOptions copy(IvmOptions changed) {
        return new ViewOptions(changed, triggers, stateBackend, deadLetters);
    }

    /** The entries of {@code text}: split at commas outside parentheses. */
    static List<String> split(String text) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                if (--depth < 0) {
                    throw error("unbalanced ')' at position " + (i + 1) + " of '" + text + "'");
                }
            } else if (c == ',' && depth == 0) {
                out.add(text.substring(start, i));
                start = i + 1;
            }
        }
        if (depth != 0) {
            throw error("unbalanced '(' in '" + text + "'");
        }
        out.add(text.substring(start));
        out.removeIf(String::isBlank);
        return out;
    }

    private static List<String> columns(String name, String value) {
        String list = value;
        if (list.startsWith("(") && list.endsWith(")")) {
            list = list.substring(1, list.length() - 1);
        }
        List<String> out = new ArrayList<>();
        for (String c : list.split(",")) {
            if (c.isBlank()) {
                throw error(name + ": expected a column or (column, column, ...), got '" + value + "'");
            }
            out.add(c.strip());
        }
        return out;
    }

    private static long positiveLong(String name, String value) {
        long v;
        try {
            v = Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw error(name + ": expected a whole number, got '" + value + "'");
        }
        if (v < 1 || (!name.equals("snapshot-every") && v > Integer.MAX_VALUE)) {
            throw error(name + ": expected a whole number from 1" + (name.equals("snapshot-every") ? "" : " to 2^31-1")
                    + ", got " + value);
        }
        return v;
    }

    private static Duration duration(String name, String value) {
        Duration d;
        try {
            d = TimeUtils.parseDuration(value);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw error(name + ": expected a duration such as 500 ms, 1 s or 2 min, got '" + value + "'");
        }
        if (d.isZero() || d.isNegative()) {
            throw error(name + ": must be positive, got '" + value + "'");
        }
        return d;
    }

    private static boolean bool(String name, String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw error(name + ": expected true or false, got '" + value + "'");
        };
    }

    private static Planner.Strategy strategy(String value) {
        for (Planner.Strategy s : Planner.Strategy.values()) {
            if (s.name().replace('_', '-').equalsIgnoreCase(value)) {
                return s;
            }
        }
        throw error("strategy: expected auto, p-hierarchical or fallback, got '" + value + "'");
    }

    private static WindowEmit windowEmit(String value) {
        for (WindowEmit e : WindowEmit.values()) {
            if (e.name().equalsIgnoreCase(value)) {
                return e;
            }
        }
        throw error("window-emit: expected changes or final, got '" + value + "'");
    }

    private static String stateBackend(String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "heap", "hashmap" -> "hashmap";
            case "rocksdb" -> "rocksdb";
            default -> throw error("state: expected heap or rocksdb, got '" + value + "'");
        };
    }

    private static String nonEmpty(String name, String value) {
        if (value.isEmpty()) {
            throw error(name + ": the value is empty");
        }
        return value;
    }

    private static ValidationException error(String what) {
        return new ValidationException("options: " + what
                + "; the options are name=value pairs separated by commas, the names " + String.join(", ", KNOWN));
    }
}
