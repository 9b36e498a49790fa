package dev.quarantine.connect.sink.ownership;

import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;

import dev.quarantine.connect.sink.ownership.OwnershipLog.LogRead;
import dev.quarantine.connect.sink.progress.OwnershipRecord;
import dev.quarantine.txn.progress.CompactedTopicReader;

/**
 * Before Connect's offsets API changes the progress of source partitions (the connector is STOPPED, but a zombie task
 * of it may still write): every task slot id that holds a claim of one of them is fenced
 * ({@code Admin.fenceProducers}), so a zombie's transaction under way is aborted and its next one refused until it
 * initialises again, after which it reads the progress again (design 2.5) and finds the change. A zombie that
 * initialises again and commits between this fence and the change's own commit is not stopped (a limit: the
 * change's transaction is not of the holder's id).
 */
public final class ClaimHolders {

    private ClaimHolders() {
    }

    /**
     * The ids of {@code prefix} holding a claim of a partition {@code changed} accepts (on partition 1 of
     * {@code progressTopic}).
     *
     * @throws RetriableException when the claims could not be read within {@code bound}
     */
    public static Set<String> of(CompactedTopicReader reader, String progressTopic, String prefix,
                                 Predicate<TopicPartition> changed, Duration bound) {
        LogRead<OwnershipRecord> read = new CompactedOwnershipLog(reader, progressTopic, prefix, Clock.systemUTC())
                .claims(bound);
        if (!(read instanceof LogRead.Read<OwnershipRecord> claims)) {
            throw new RetriableException("Could not read the claims on " + progressTopic + "-"
                    + OwnershipRecord.PARTITION + " to fence the tasks holding the partitions whose offsets change ("
                    + read + "); send the request again");
        }
        Set<String> holders = new TreeSet<>();
        claims.records().forEach(at -> {
            if (changed.test(at.record().source()) && !at.record().holder().equals(OwnershipRecord.offsetsId(prefix))) {
                holders.add(at.record().holder());
            }
        });
        return holders;
    }

    /**
     * Fences {@code holders} ({@code Admin.fenceProducers} through {@code producerAdmin}).
     *
     * @throws RetriableException when the fence did not answer within {@code bound}
     * @throws ConnectException   when the fence was refused (an ACL), naming what to grant
     */
    public static void fence(Admin producerAdmin, Set<String> holders, Duration bound) {
        if (holders.isEmpty()) {
            return;
        }
        Fencer.Fence fence = new AdminFencer(producerAdmin).fence(holders, bound);
        if (fence instanceof Fencer.Fence.Refused refused) {
            throw new ConnectException("Could not fence " + holders + " before changing the progress: "
                    + refused.cause() + ". Check the ACLs of the target producer's principal (WRITE on the"
                    + " transactional ids of the connector's prefix)", refused.cause());
        }
        if (fence instanceof Fencer.Fence.Transient failed) {
            throw new RetriableException("Could not fence " + holders + " before changing the progress ("
                    + failed.cause() + "); send the request again", failed.cause());
        }
    }
}
