package dev.quarantine.connect.sink.ownership;

/** A producer id and epoch as the transaction coordinator handed them out. */
public record ProducerEpoch(long producerId, short epoch) {

    @Override
    public String toString() {
        return producerId + "@" + epoch;
    }
}
