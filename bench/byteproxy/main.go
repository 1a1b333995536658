// Command byteproxy forwards the TCP connections it takes on a loopback port to another
// address, and appends to a log file, as each connection ends, the bytes it carried both
// ways, one number a line. bench/partial.sh puts it in front of git daemon to compare what a
// sync and a clone transfer.
//
//	byteproxy -to 127.0.0.1:9418 -log FILE -port-file FILE
//
// It writes the port it listens on to -port-file and runs until it is stopped.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "byteproxy:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fl := flag.NewFlagSet("byteproxy", flag.ContinueOnError)
	to := fl.String("to", "", "address to forward to, such as 127.0.0.1:9418")
	logFile := fl.String("log", "", "file to append each connection's byte count to")
	portFile := fl.String("port-file", "", "file to write the port listened on to")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *to == "" || *logFile == "" || *portFile == "" {
		return errors.New("usage: byteproxy -to HOST:PORT -log FILE -port-file FILE")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	if err := os.WriteFile(*portFile, []byte(port+"\n"), 0o644); err != nil {
		return err
	}
	p := &proxy{to: *to, log: *logFile}
	for {
		c, err := l.Accept()
		if err != nil {
			return err
		}
		go p.serve(c.(*net.TCPConn))
	}
}

// proxy forwards connections to one address and logs their byte counts.
type proxy struct {
	to, log string
	mu      sync.Mutex
}

// serve forwards c both ways until both sides are done, then logs what it carried.
func (p *proxy) serve(c *net.TCPConn) {
	defer c.Close()
	up, err := net.Dial("tcp", p.to)
	if err != nil {
		fmt.Fprintln(os.Stderr, "byteproxy:", err)
		return
	}
	defer up.Close()
	var n atomic.Int64
	var wg sync.WaitGroup
	wg.Add(2)
	go pipe(&wg, &n, up.(*net.TCPConn), c)
	go pipe(&wg, &n, c, up.(*net.TCPConn))
	wg.Wait()
	p.record(n.Load())
}

// pipe copies from src to dst, adds the bytes to n, and closes dst for writing when src ends.
func pipe(wg *sync.WaitGroup, n *atomic.Int64, dst, src *net.TCPConn) {
	defer wg.Done()
	copied, _ := io.Copy(dst, src)
	n.Add(copied)
	dst.CloseWrite()
}

// record appends one connection's byte count to the log.
func (p *proxy) record(n int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	f, err := os.OpenFile(p.log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, "byteproxy:", err)
		return
	}
	defer f.Close()
	fmt.Fprintln(f, n)
}
