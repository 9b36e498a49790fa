package dev.quarantine.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.RuntimeMXBean;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import javax.management.Attribute;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;

import dev.quarantine.sandbox.ProcSockets;

/**
 * The platform MBean server of a JVM this run started (a Connect worker, the broker), reached through the attach API:
 * its local management agent, started on request, serves JMX on 127.0.0.1 only. No port is picked, so none can be
 * taken by another process meanwhile; and the JVM answering must report the pid attached to, or nothing is measured.
 */
final class AttachedJvm implements AutoCloseable {

    private final String what;
    private final long pid;
    private final JMXConnector connector;
    private final MBeanServerConnection mbeans;

    private AttachedJvm(String what, long pid, JMXConnector connector) throws IOException {
        this.what = what;
        this.pid = pid;
        this.connector = connector;
        this.mbeans = connector.getMBeanServerConnection();
    }

    /** The JVM of process {@code pid}, which must be a child of this one; fails unless it answers as that pid. */
    static AttachedJvm of(String what, long pid) {
        if (ProcessHandle.current().descendants().noneMatch(p -> p.pid() == pid)) {
            throw new IllegalStateException(what + " (pid " + pid + ") is not a process this run started");
        }
        try {
            VirtualMachine vm = VirtualMachine.attach(String.valueOf(pid));
            String address;
            try {
                address = vm.startLocalManagementAgent();
            } finally {
                vm.detach();
            }
            JMXServiceURL url = new JMXServiceURL(address);
            if (!InetAddress.getByName(url.getHost()).isLoopbackAddress()) {
                throw new IllegalStateException(what + " serves JMX on " + url.getHost() + ", not on loopback");
            }
            AttachedJvm jvm = new AttachedJvm(what, pid, JMXConnectorFactory.connect(url));
            long answering = jvm.platform(ManagementFactory.RUNTIME_MXBEAN_NAME, RuntimeMXBean.class).getPid();
            if (answering != pid) {
                jvm.close();
                throw new IllegalStateException("the JMX server of " + what + " answered as pid " + answering
                        + ", not " + pid + "; not measuring it");
            }
            return jvm;
        } catch (IOException | AttachNotSupportedException e) {
            throw new IllegalStateException("could not attach to " + what + " (pid " + pid + ")", e);
        }
    }

    /**
     * The JVM among this one's descendants that listens on 127.0.0.1:{@code port} (the broker, which the sandbox starts
     * without telling its pid): the server answering there is then one this run started.
     */
    static AttachedJvm listeningOn(String what, int port) {
        long pid = ProcessHandle.current().descendants().mapToLong(ProcessHandle::pid)
                .filter(p -> listens(p, port)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no process this run started listens on 127.0.0.1:"
                        + port + " (" + what + "); not measuring another process's server"));
        return of(what, pid);
    }

    private static boolean listens(long pid, int port) {
        try {
            return ProcSockets.listensOnLoopback(ProcSockets.of(pid), port);
        } catch (RuntimeException exitedOrUnreadable) {
            return false;
        }
    }

    long pid() {
        return pid;
    }

    /** A proxy of one of the JVM's platform MXBeans ({@link ManagementFactory#MEMORY_MXBEAN_NAME}, ...). */
    <T> T platform(String name, Class<T> type) {
        try {
            return ManagementFactory.newPlatformMXBeanProxy(mbeans, name, type);
        } catch (IOException e) {
            throw new IllegalStateException("could not reach " + name + " of " + what, e);
        }
    }

    /** The names matching {@code pattern}. */
    Set<ObjectName> names(String pattern) {
        try {
            return mbeans.queryNames(new ObjectName(pattern), null);
        } catch (IOException | JMException e) {
            throw new IllegalStateException("could not list the MBeans " + pattern + " of " + what, e);
        }
    }

    /** A numeric attribute; NaN when the MBean went away meanwhile (a client closed) or the value is not a number. */
    double number(ObjectName name, String attribute) {
        try {
            return mbeans.getAttribute(name, attribute) instanceof Number n ? n.doubleValue() : Double.NaN;
        } catch (JMException goneMeanwhile) {
            return Double.NaN;
        } catch (IOException e) {
            throw new IllegalStateException("lost the JMX connection to " + what, e);
        }
    }

    /** {@code attributes} of one MBean, in order, NaN for any it no longer has. */
    double[] numbers(ObjectName name, String... attributes) {
        double[] values = new double[attributes.length];
        List<String> wanted = List.of(attributes);
        try {
            List<Attribute> read = new ArrayList<>(mbeans.getAttributes(name, attributes).asList());
            Arrays.fill(values, Double.NaN);
            for (Attribute attribute : read) {
                if (attribute.getValue() instanceof Number n) {
                    values[wanted.indexOf(attribute.getName())] = n.doubleValue();
                }
            }
        } catch (JMException goneMeanwhile) {
            Arrays.fill(values, Double.NaN);
        } catch (IOException e) {
            throw new IllegalStateException("lost the JMX connection to " + what, e);
        }
        return values;
    }

    @Override
    public void close() {
        try {
            connector.close();
        } catch (IOException alreadyGone) {
            // the JVM exited: nothing left to close
        }
    }
}
