package dev.quarantine.connect.sink.ownership;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.FenceProducersOptions;
import org.apache.kafka.clients.admin.FenceProducersResult;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.UnsupportedVersionException;

import dev.quarantine.txn.SendErrors;

/**
 * The real {@link Fencer}: {@code Admin.fenceProducers} on an admin client built from {@code target.producer.*} (the
 * principal that holds {@code Write} on the transactional ids), bounded by {@code bound}. The admin's
 * {@code FenceProducersHandler} retries {@code CONCURRENT_TRANSACTIONS} until the ids have no transaction ongoing or
 * completing, so a {@link Fence.Done} means K2 of design section 3.
 *
 * <table>
 * <caption>How a failure is answered ({@link #failed})</caption>
 * <tr><th>cause (wrappers looked through)</th><th>answer</th></tr>
 * <tr><td>AuthorizationException (TransactionalIdAuthorizationException, ...), AuthenticationException,
 *     UnsupportedVersionException (a broker without the API)</td><td>{@link Fence.Refused}: the task fails naming the
 *     ACL</td></tr>
 * <tr><td>anything else (a timeout, a coordinator moving, an interrupt)</td><td>{@link Fence.Transient}: maybe
 *     applied to some ids; the stage is tried again until {@code transient.errors.timeout.ms}</td></tr>
 * </table>
 */
final class AdminFencer implements Fencer {

    private final Admin admin;

    /** {@code admin}: built from {@code target.producer.*}; not closed here. */
    AdminFencer(Admin admin) {
        this.admin = admin;
    }

    @Override
    public Fence fence(Set<String> transactionalIds, Duration bound) {
        FenceProducersOptions options = new FenceProducersOptions().timeoutMs((int) Math.min(Integer.MAX_VALUE,
                bound.toMillis()));
        FenceProducersResult result = admin.fenceProducers(transactionalIds, options);
        Map<String, ProducerEpoch> epochs = new TreeMap<>();
        try {
            result.all().get(bound.toMillis(), TimeUnit.MILLISECONDS);
            for (String id : transactionalIds) {
                epochs.put(id, new ProducerEpoch(result.producerId(id).get(), result.epochId(id).get()));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return failed(e);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            return failed(e);
        }
        return new Fence.Done(epochs);
    }

    /** The answer to a fence that failed with {@code cause}: the class comment's table. */
    static Fence failed(Throwable cause) {
        Throwable e = SendErrors.unwrap(cause);
        if (e instanceof AuthorizationException || e instanceof AuthenticationException
                || e instanceof UnsupportedVersionException) {
            return new Fence.Refused(e);
        }
        return new Fence.Transient(e);
    }
}
