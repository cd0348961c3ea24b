package io.flinkivm.examples.kafka;

/** The text format of the input records, chosen with {@code --format}. */
enum RecordFormat {
    /** {@code relation,v1,...,vk[,payload]}, or {@code v1,...,vk[,payload]} on a relation's own topic. */
    CSV,
    /** {@code {"relation":"R","values":[...],"payload":...}}, without "relation" on a relation's own topic. */
    JSON,
    /** Debezium change events ({@link DebeziumJson}): inserts, deletes and updates of rows. */
    DEBEZIUM_JSON,
    /** An upsert topic ({@link NormalizeUpserts}): key a row's primary key, value the row or null for a delete. */
    UPSERT_JSON
}
