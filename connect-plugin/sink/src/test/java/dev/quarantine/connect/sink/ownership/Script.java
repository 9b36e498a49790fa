package dev.quarantine.connect.sink.ownership;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import dev.quarantine.sandbox.MovableClock;

/**
 * The order of a harness test (design 5.2): every seam call is labelled {@code <party>.<step>} ({@code T1.fence},
 * {@code T0.commit}); the script lists the labels in order, each with the answer it gets where that is not the
 * model's own. Each party runs on its own thread and a call blocks until its label is next, so the order is the
 * script's whatever the threads do; nothing waits on time to decide it, and the clock moves only by
 * {@link #advance}. A party stopped past a step (SIGSTOP) is written as its next label placed later in the script.
 *
 * <p>A label that is not its party's next scripted step fails the test with the labels done so far, and so does a
 * party whose thread ends while its steps remain (every other party would wait for it forever). The only wait on
 * time is a safety net that fails a test stuck outside the script (a party blocked on something the script does not
 * order) after {@link #STUCK}, with the same message.
 */
final class Script {

    static final Duration STUCK = Duration.ofSeconds(60);

    private final List<Step> steps;
    private final MovableClock clock;
    private final List<String> done = new ArrayList<>();
    private final Set<String> left = new HashSet<>();
    private int next;
    private String failure;

    private Script(List<Step> steps, MovableClock clock) {
        this.steps = List.copyOf(steps);
        this.clock = clock;
    }

    static Builder builder() {
        return new Builder();
    }

    MovableClock clock() {
        return clock;
    }

    /** The parties of a {@link #run}, in the order given. */
    static Map<String, Runnable> parties(String first, Runnable firstBody, String second, Runnable secondBody) {
        Map<String, Runnable> parties = new LinkedHashMap<>();
        parties.put(first, firstBody);
        parties.put(second, secondBody);
        return parties;
    }

    /** The parties of a {@link #run}, in the order given. */
    static Map<String, Runnable> parties(String first, Runnable firstBody, String second, Runnable secondBody,
                                         String third, Runnable thirdBody) {
        Map<String, Runnable> parties = parties(first, firstBody, second, secondBody);
        parties.put(third, thirdBody);
        return parties;
    }

    /** Runs {@code model} when {@code label} is next and returns its answer, or the one scripted for the step. */
    <T> T call(String label, Supplier<T> model) {
        int index = awaitTurn(label);
        Step step = steps.get(index);
        try {
            T answer = step.answer.isPresent() && !step.applied ? null : model.get();
            @SuppressWarnings("unchecked")
            T scripted = step.answer.isPresent() ? (T) step.answer.get() : answer;
            finish(index);
            return scripted;
        } catch (RuntimeException | Error e) {
            fail(label + " threw " + e);
            throw e;
        }
    }

    /** A step with nothing to call: {@code label} happens here. */
    void step(String label) {
        call(label, () -> null);
    }

    /** Moves the clock by {@code by} when {@code label} is next. */
    void advance(String label, Duration by) {
        call(label, () -> {
            clock.advance(by);
            return null;
        });
    }

    /**
     * Runs each party on its own thread and returns once every step is done; fails with the labels done so far when
     * the script failed or a party ended with steps left.
     */
    void run(Map<String, Runnable> parties) {
        List<Thread> threads = new ArrayList<>();
        parties.forEach((party, body) -> {
            Thread thread = new Thread(() -> {
                try {
                    body.run();
                } catch (RuntimeException | Error e) {
                    fail(party + " failed: " + e);
                } finally {
                    leave(party);
                }
            }, "script-" + party);
            threads.add(thread);
            thread.start();
        });
        try {
            for (Thread thread : threads) {
                thread.join(STUCK.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted; " + doneSoFar(), e);
        }
        synchronized (this) {
            if (failure == null && next < steps.size()) {
                failure = "the script did not end: next " + steps.get(next).label;
            }
            if (failure != null) {
                threads.forEach(Thread::interrupt);
                throw new AssertionError(failure + "; " + doneSoFar());
            }
        }
    }

    synchronized List<String> done() {
        return List.copyOf(done);
    }

    private synchronized int awaitTurn(String label) {
        String party = partyOf(label);
        int index = nextOf(party);
        if (index < 0 || !steps.get(index).label.equals(label)) {
            fail(party + " reached " + label + " but its next scripted step is "
                    + (index < 0 ? "none" : steps.get(index).label));
        }
        long deadline = System.nanoTime() + STUCK.toNanos();
        while (failure == null && next != index) {
            long wait = deadline - System.nanoTime();
            if (wait <= 0) {
                fail(label + " waited past " + STUCK + " for " + steps.get(next).label);
                break;
            }
            try {
                TimeUnit.NANOSECONDS.timedWait(this, wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                fail(label + " interrupted");
            }
        }
        if (failure != null) {
            throw new AssertionError(failure + "; " + doneSoFar());
        }
        return index;
    }

    private synchronized void finish(int index) {
        done.add(steps.get(index).label);
        next = index + 1;
        checkPartyOfNextIsAlive();
        notifyAll();
    }

    private synchronized void leave(String party) {
        left.add(party);
        checkPartyOfNextIsAlive();
        notifyAll();
    }

    private void checkPartyOfNextIsAlive() {
        if (next < steps.size() && left.contains(partyOf(steps.get(next).label))) {
            fail(partyOf(steps.get(next).label) + " ended with " + steps.get(next).label + " still to do");
        }
    }

    private synchronized void fail(String reason) {
        if (failure == null) {
            failure = reason;
        }
        notifyAll();
    }

    private int nextOf(String party) {
        for (int i = next; i < steps.size(); i++) {
            if (partyOf(steps.get(i).label).equals(party)) {
                return i;
            }
        }
        return -1;
    }

    private String doneSoFar() {
        return "done so far: " + done;
    }

    private static String partyOf(String label) {
        int dot = label.indexOf('.');
        return dot < 0 ? label : label.substring(0, dot);
    }

    private record Step(String label, Optional<Object> answer, boolean applied) {
    }

    /** The steps in order. */
    static final class Builder {

        private final List<Step> steps = new ArrayList<>();

        /** {@code labels} in order, each answered by the model. */
        Builder then(String... labels) {
            for (String label : labels) {
                steps.add(new Step(label, Optional.empty(), false));
            }
            return this;
        }

        /** {@code label} answered {@code answer} without calling the model (a timeout that was not applied). */
        Builder instead(String label, Object answer) {
            steps.add(new Step(label, Optional.of(answer), false));
            return this;
        }

        /** {@code label} calls the model, whose answer is replaced by {@code answer} (applied, answer lost). */
        Builder applied(String label, Object answer) {
            steps.add(new Step(label, Optional.of(answer), true));
            return this;
        }

        Script build() {
            return new Script(steps, new MovableClock());
        }
    }
}
