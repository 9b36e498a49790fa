package dev.quarantine.connect.sink.ownership;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;

import dev.quarantine.connect.sink.progress.OwnershipRecord;
import dev.quarantine.txn.SendErrors;
import dev.quarantine.txn.TxnSendOption;

/**
 * Step 2 of design 2.4: one transaction of the slot's producer commits one claim per partition, on partition 1 of the
 * progress topic. The answer says how it ended; whatever the commit reports short of "committed" or "fenced" is "maybe
 * committed" (2(c) of the review): the partitions stay NEW and the next read of partition 1 decides from the log.
 */
final class ClaimStage {

    /** How the claim transaction ended. */
    sealed interface Claimed {
        /** Committed: each partition's claim offset. */
        record Committed(Map<TopicPartition, Long> offsets) implements Claimed {
            public Committed {
                offsets = Map.copyOf(offsets);
            }
        }

        /** The producer was fenced: the slot is initialised again (2.5) and reads partition 1. */
        record Fenced(Throwable cause) implements Claimed {
        }

        /** Committed or not, unknown (a timeout, an answer lost, a send refused for now). */
        record NotKnown(Throwable cause) implements Claimed {
        }
    }

    private final String prefix;
    private final String progressTopic;
    private final String ownId;
    private final SlotProducer producer;

    ClaimStage(String prefix, String progressTopic, String ownId, SlotProducer producer) {
        this.prefix = prefix;
        this.progressTopic = progressTopic;
        this.ownId = ownId;
        this.producer = producer;
    }

    /**
     * Claims {@code partitions} in one transaction.
     *
     * @throws ConnectException when the commit was refused for good (an ACL on the progress topic)
     */
    Claimed claim(Collection<TopicPartition> partitions) {
        producer.begin();
        Map<TopicPartition, Future<RecordMetadata>> sent = new HashMap<>();
        for (TopicPartition partition : partitions) {
            SlotProducer.Sent answer = producer.send(new OwnershipRecord(partition, ownId)
                    .toRecord(progressTopic, prefix), TxnSendOption.NONE);
            if (answer instanceof SlotProducer.Sent.Accepted accepted) {
                sent.put(partition, accepted.metadata());
            } else {
                Throwable cause = ((Caused) answer).cause();
                producer.abort();
                return SendErrors.isFencing(cause) ? new Claimed.Fenced(cause) : new Claimed.NotKnown(cause);
            }
        }
        SlotProducer.End end = producer.commit();
        if (end instanceof SlotProducer.End.Done) {
            return offsets(sent);
        } else if (end instanceof SlotProducer.End.Fenced fenced) {
            return new Claimed.Fenced(fenced.cause());
        } else if (end instanceof SlotProducer.End.Fatal fatal) {
            throw refused(partitions, fatal.cause());
        }
        refusedForGood(sent).ifPresent(refused -> {
            throw refused(partitions, refused);
        });
        return new Claimed.NotKnown(((Caused) end).cause());
    }

    /** The claims refused for good (not authorised, too large), naming the progress topic, the ACL and the setting. */
    private ConnectException refused(Collection<TopicPartition> partitions, Throwable cause) {
        return new ConnectException("The claims of " + partitions + " by " + ownId + " cannot be written to the"
                + " progress topic " + progressTopic + " (" + cause + "). Check the ACLs of the target producer's"
                + " principal (WRITE and DESCRIBE on topic " + progressTopic + ") and the topic's max.message.bytes",
                cause);
    }

    /** A claim the broker refused for good (too large, not authorised): sending it again fails again. */
    private static Optional<Throwable> refusedForGood(Map<TopicPartition, Future<RecordMetadata>> sent) {
        for (Future<RecordMetadata> send : sent.values()) {
            if (send.isDone()) {
                try {
                    send.get();
                } catch (ExecutionException e) {
                    Throwable cause = SendErrors.unwrap(e.getCause());
                    if (!SendErrors.isTransient(cause) && !SendErrors.isFencing(cause)) {
                        return Optional.of(cause);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return Optional.empty();
                }
            }
        }
        return Optional.empty();
    }

    private static Claimed offsets(Map<TopicPartition, Future<RecordMetadata>> sent) {
        Map<TopicPartition, Long> offsets = new HashMap<>();
        try {
            for (Map.Entry<TopicPartition, Future<RecordMetadata>> entry : sent.entrySet()) {
                offsets.put(entry.getKey(), entry.getValue().get().offset());
            }
        } catch (ExecutionException e) {
            return new Claimed.NotKnown(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Claimed.NotKnown(e);
        }
        return new Claimed.Committed(offsets);
    }
}
