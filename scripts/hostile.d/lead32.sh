# Confidence flags of classify and labelprop (issue #32): refused naming the
# flag and its range, before any fit.
expect_error_msg "classify --conformal 1 is refused with its range" 'conformal 1 is invalid: it must be in the open interval \(0, 1\)' \
	"$gssl" classify --conformal 1
expect_error_msg "classify --conformal NaN is refused with its range" 'conformal NaN is invalid' \
	"$gssl" classify --conformal NaN
expect_error_msg "labelprop --conformal -0.1 is refused with its range" 'conformal -0.1 is invalid' \
	"$gssl" labelprop --conformal -0.1
expect_error_msg "classify --metric f1 names the metrics there are" 'metric "f1" is not one of accuracy, auc, auto' \
	"$gssl" classify --metric f1
expect_error_msg "classify --conformal without validation nodes says what split to use" 'needs validation nodes to calibrate on' \
	"$gssl" classify --conformal 0.1 --split none
expect_error_msg "labelprop --conformal without validation nodes says what split to use" 'needs validation nodes to calibrate on' \
	"$gssl" labelprop --conformal 0.1 --split none
