# golden: the fixtures module, as emit_policy_tests generates it today
