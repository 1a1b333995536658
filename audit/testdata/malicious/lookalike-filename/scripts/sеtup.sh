#!/bin/sh
echo configuring
