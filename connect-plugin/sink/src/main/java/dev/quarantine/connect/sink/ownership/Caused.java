package dev.quarantine.connect.sink.ownership;

/**
 * An answer that says a call ended with an exception, and carries it: the failing answers of a {@link SlotProducer}
 * and a transaction's failing outcomes. Code that needs only the exception takes it here, without naming each variant.
 */
public interface Caused {

    Throwable cause();
}
