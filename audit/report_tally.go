package audit

// skillTally is what one skill adds to the summary of a run.
type skillTally struct {
	counts  findingCounts
	risk    Risk
	verdict Verdict
}

func tallyOf(s SkillReport, failOn Risk) skillTally {
	return skillTally{counts: countFindings(findingsOf(s)), risk: riskOfSkill(s), verdict: judgeReport(s.Report, failOn)}
}

// runTally sums the tallies of a run's skills. It counts the skills of each risk and verdict,
// not only the highest, so that a skill's tally can be taken out again.
type runTally struct {
	skills   int
	counts   findingCounts
	risks    [RiskHigh + 1]int
	verdicts [VerdictBlocked + 1]int
}

// add adds s to the tally when sign is 1, and takes it out when sign is -1.
func (t *runTally) add(s skillTally, sign int) {
	t.skills += sign
	t.counts.plus(s.counts, sign)
	if s.risk >= RiskLow && s.risk <= RiskHigh {
		t.risks[s.risk] += sign
	}
	if s.verdict >= VerdictPass && s.verdict <= VerdictBlocked {
		t.verdicts[s.verdict] += sign
	}
}

// risk returns the highest risk of the run's skills, as Overall does.
func (t runTally) risk() Risk {
	for r := RiskHigh; r > RiskLow; r-- {
		if t.risks[r] > 0 {
			return r
		}
	}
	return RiskLow
}

// verdict returns the worst verdict of the run's skills, as Judge does.
func (t runTally) verdict() Verdict {
	for v := VerdictBlocked; v > VerdictPass; v-- {
		if t.verdicts[v] > 0 {
			return v
		}
	}
	return VerdictPass
}
