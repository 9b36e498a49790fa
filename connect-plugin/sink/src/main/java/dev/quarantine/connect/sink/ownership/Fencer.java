package dev.quarantine.connect.sink.ownership;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * Fences transactional ids: real, {@code Admin.fenceProducers} on an admin client built from
 * {@code target.producer.*}; it returns only once no transaction of the ids is ongoing or completing and each id's
 * epoch is one only this call handed out (design section 3, K2).
 */
interface Fencer {

    /** Fences {@code transactionalIds}, waiting at most {@code bound}. */
    Fence fence(Set<String> transactionalIds, Duration bound);

    /** How a fence ended. */
    sealed interface Fence {
        /** Every id fenced; its new producer id and epoch. */
        record Done(Map<String, ProducerEpoch> epochs) implements Fence {
            public Done {
                epochs = Map.copyOf(epochs);
            }
        }

        /** Timed out or failed for now; it may have been applied to some ids (or all). */
        record Transient(Throwable cause) implements Fence {
        }

        /** Refused for good (an ACL on the transactional ids): the task fails naming it. */
        record Refused(Throwable cause) implements Fence {
        }
    }
}
