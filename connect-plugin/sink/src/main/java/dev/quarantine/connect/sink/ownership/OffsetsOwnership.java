package dev.quarantine.connect.sink.ownership;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;

import dev.quarantine.connect.sink.ownership.Ownership.Opening;

/**
 * Connect's offsets API as a holder like any other (design 2.1, {@code <prefix>:offsets#0}; harness row 16): the
 * {@link Ownership} of the offsets id is driven, put after put, until every partition the API changes is OWNED, so
 * the partitions are claimed on partition 1, their earlier holders fenced by rule F (zombies of the stopped connector
 * included) and their progress read after that fence, as a task slot takes them. A zombie that initialises again
 * after that fence reads the API's later claim and pauses the partition (LOST).
 *
 * <p>A stage that fails for now is tried again at the next advance, up to {@value #ATTEMPTS} times in a row (a read
 * held back is completed by {@link LeftOpenCompletion} before it is tried again); then the request fails, to be sent
 * again. A partition claimed by another id after the API's claim (the connector is not stopped) fails it too.
 */
public final class OffsetsOwnership {

    static final int ATTEMPTS = 3;

    private final Ownership ownership;
    private final StageBudget stages;

    public OffsetsOwnership(Ownership ownership, StageBudget stages) {
        this.ownership = ownership;
        this.stages = stages;
    }

    /**
     * Opens those of {@code partitions} not open yet and advances until every open partition is OWNED; answers the
     * claim each is OWNED under, for its progress record's {@code claim} (rule W).
     *
     * @throws RetriableException when a stage failed for now {@value #ATTEMPTS} times in a row
     * @throws ConnectException   when a stage failed for good, or another id claimed a partition after this one
     */
    public Map<TopicPartition, Long> own(Collection<TopicPartition> partitions) {
        Set<TopicPartition> opening = new TreeSet<>(Ownership.BY_NAME);
        opening.addAll(partitions);
        opening.removeAll(ownership.assigned());
        ownership.open(opening);
        int failedInARow = 0;
        while (!ownership.opening().isEmpty()) {
            Opening advanced = ownership.advance(stages.startPut());
            if (advanced instanceof Opening.Failed failed) {
                throw failed.cause();
            }
            if (ownership.lastFailure().isEmpty()) {
                failedInARow = 0;
            } else if (++failedInARow >= ATTEMPTS) {
                Throwable cause = ownership.lastFailure().get();
                throw new RetriableException("the partitions " + ownership.opening() + " could not be claimed, fenced"
                        + " and read (tried " + ATTEMPTS + " times): " + cause, cause);
            }
        }
        return claims();
    }

    private Map<TopicPartition, Long> claims() {
        Map<TopicPartition, Long> claims = new LinkedHashMap<>();
        Set<TopicPartition> lost = new TreeSet<>(Ownership.BY_NAME);
        for (TopicPartition partition : ownership.assigned()) {
            OptionalLong claim = ownership.ownedUnder(partition);
            if (claim.isPresent()) {
                claims.put(partition, claim.getAsLong());
            } else {
                lost.add(partition);
            }
        }
        if (!lost.isEmpty()) {
            throw new ConnectException("the partitions " + lost + " were claimed by another id after the offsets"
                    + " API's claim: a task of the connector still runs (stop the connector, wait until it is STOPPED"
                    + " and send the request again)");
        }
        return claims;
    }
}
