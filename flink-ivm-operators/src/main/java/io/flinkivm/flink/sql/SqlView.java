package io.flinkivm.flink.sql;

import io.flinkivm.flink.DeadLetter;
import io.flinkivm.flink.IvmJob;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.api.Table;

/**
 * A SQL query maintained by flink-ivm ({@link io.flinkivm.flink.FlinkIvm#sql}).
 *
 * <p>{@link #table()} is insert-only and carries <b>snapshots as rows</b>: its first column
 * {@value #SNAPSHOT_COLUMN} (BIGINT) is the snapshot id (the number of inserts it reflects), then come
 * the SELECT list's columns with their names and types. Every snapshot repeats every row of the
 * result at that point, so the rows of one key arrive again with each snapshot; as results only grow
 * on insert-only input, the latest row per key is the current result, which is what an upsert sink
 * (e.g. {@code upsert-kafka} with the GROUP BY columns as primary key) keeps. With
 * {@link io.flinkivm.flink.OutputMode#CHANGELOG} only the rows that changed since the previous snapshot
 * come. Complete snapshots (with end markers) are on {@link IvmJob#results()} of {@link #job()}. Until
 * the output-sensitive changelog exists, this is the table's changelog.
 *
 * @param table the maintained view, snapshots as rows
 * @param translation the SQL's translation (query, semiring, payloads, result columns)
 * @param job the flink-ivm job (plan, layout, result records)
 * @param deadLetters rows that could not become inserts and updates that failed, with their reasons
 */
public record SqlView(Table table, SqlTranslation translation, IvmJob<?> job, DataStream<DeadLetter> deadLetters) {

    /** The name of the snapshot id column, the table's first. */
    public static final String SNAPSHOT_COLUMN = "snapshot_id";

    /** The translation, then the plan's classification and operators, as {@code explain --sql} prints them. */
    public String explain() {
        return translation.explain() + "\n" + job.plan().explain() + job.layout().explain();
    }
}
