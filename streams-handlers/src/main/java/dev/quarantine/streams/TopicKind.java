package dev.quarantine.streams;

/** What a topic a Streams app writes to is to that app: one of the rows of {@link HandlerDecisions}. */
enum TopicKind {
    /** A topic of the topology's own sinks: its records may be dead-lettered. */
    OUTPUT,
    /** The changelog topic of one of the app's state stores. */
    CHANGELOG,
    /** One of the app's repartition topics (including a foreign-key join's subscription topics). */
    REPARTITION,
    /** The dead-letter topic ({@code errors.dead.letter.queue.topic.name}). */
    DEAD_LETTER;

    boolean isInternal() {
        return this == CHANGELOG || this == REPARTITION;
    }
}
