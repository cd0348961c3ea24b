package io.flinkivm.examples.kafka;

import io.flinkivm.core.query.ConjunctiveQuery;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The {@code kafka} command's options that name relations, {@code --relation-topic R=TOPIC} and {@code --columns
 * R=COL[:TYPE],...}, checked against the query; a mistake is a usage error made by {@code usage}.
 */
final class RelationOptions {
    private RelationOptions() {}

    /** Relation → its value columns (and their declared types) from the --columns options; empty without them. */
    static Map<String, List<RowColumn>> columns(
            List<String> columns, boolean changeEvents, ConjunctiveQuery q, Function<String, RuntimeException> usage) {
        if (!columns.isEmpty() && !changeEvents) {
            throw usage.apply("--columns names the columns of change events' rows and goes with --format debezium-json"
                    + " or upsert-json");
        }
        Map<String, List<RowColumn>> byRelation = new LinkedHashMap<>();
        for (String option : columns) {
            int eq = option.indexOf('=');
            if (eq <= 0 || eq == option.length() - 1) {
                throw usage.apply("--columns expects RELATION=COLUMN,..., got '" + option + "'");
            }
            String relation = option.substring(0, eq).trim();
            int arity = q.arityOf(relation);
            if (arity < 0) {
                throw usage.apply("--columns " + option + ": the query has no relation " + relation + "; it uses "
                        + String.join(", ", q.relations()));
            }
            List<RowColumn> named;
            try {
                named = RowColumn.parseList(option.substring(eq + 1));
            } catch (IllegalArgumentException e) {
                throw usage.apply("--columns " + option + ": " + e.getMessage());
            }
            List<String> names = new ArrayList<>();
            for (RowColumn c : named) {
                names.add(c.name());
            }
            if (names.size() != arity || names.contains("")) {
                throw usage.apply("--columns " + option + ": relation " + relation + " has arity " + arity
                        + " in the query; name " + arity + " column" + (arity == 1 ? "" : "s"));
            }
            if (byRelation.put(relation, List.copyOf(named)) != null) {
                throw usage.apply("--columns names relation " + relation + " twice");
            }
        }
        return byRelation;
    }

    /** Topic → relation from the --relation-topic options, in the order given; empty without them. */
    static Map<String, String> relationTopics(
            List<String> relationTopics, ConjunctiveQuery q, Function<String, RuntimeException> usage) {
        Map<String, String> byTopic = new LinkedHashMap<>();
        Set<String> relations = new LinkedHashSet<>();
        for (String option : relationTopics) {
            int eq = option.indexOf('=');
            if (eq <= 0 || eq == option.length() - 1) {
                throw usage.apply("--relation-topic expects RELATION=TOPIC, got '" + option + "'");
            }
            String relation = option.substring(0, eq).trim();
            String topic = option.substring(eq + 1).trim();
            if (q.arityOf(relation) < 0) {
                throw usage.apply("--relation-topic " + option + ": the query has no relation " + relation
                        + "; it uses " + String.join(", ", q.relations()));
            }
            if (!relations.add(relation)) {
                throw usage.apply("--relation-topic names relation " + relation + " twice");
            }
            String previous = byTopic.put(topic, relation);
            if (previous != null) {
                throw usage.apply("--relation-topic gives topic " + topic + " to both " + previous + " and " + relation
                        + "; a topic carries one relation (use --input-topic for records that name their relation)");
            }
        }
        if (!byTopic.isEmpty()) {
            List<String> missing = new ArrayList<>(q.relations());
            missing.removeAll(relations);
            if (!missing.isEmpty()) {
                throw usage.apply("no --relation-topic for relation" + (missing.size() == 1 ? " " : "s ")
                        + String.join(", ", missing) + " of the query; give every relation a topic");
            }
        }
        return byTopic;
    }
}
