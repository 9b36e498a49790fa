package dev.quarantine.txn;

import java.util.concurrent.CompletableFuture;

/** Reads what {@link TopicMetadataCache} keeps, from the cluster. */
interface TopicDescriber extends AutoCloseable {

    /** The topic's metadata and configuration; {@link TopicInfo#missing()} when the cluster does not know it. */
    CompletableFuture<TopicInfo> describe(String topic);

    /** Whether the brokers create a missing topic on first use ({@code auto.create.topics.enable}). */
    CompletableFuture<Boolean> autoCreateEnabled();

    @Override
    void close();
}
