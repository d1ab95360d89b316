import { type Errors, collect, email, numericCode, required } from '@/lib/validation'

export type SignUpValues = { email: string; fullName: string; userName: string; password: string; confirmPassword: string }
export function validateSignUp(v: SignUpValues): Errors<SignUpValues> {
  return collect<SignUpValues>({
    email: email(v.email),
    fullName: required(v.fullName),
    userName: required(v.userName),
    password: required(v.password),
    confirmPassword: v.confirmPassword === v.password ? null : 'validation.passwordMismatch',
  })
}

export type SignInValues = { email: string; password: string }
export function validateSignIn(v: SignInValues): Errors<SignInValues> {
  return collect<SignInValues>({ email: email(v.email), password: required(v.password) })
}

export type ForgotPasswordValues = { email: string }
export function validateForgotPassword(v: ForgotPasswordValues): Errors<ForgotPasswordValues> {
  return collect<ForgotPasswordValues>({ email: email(v.email) })
}

export type NewPasswordValues = { password: string; confirmPassword: string }
export function validateNewPassword(v: NewPasswordValues): Errors<NewPasswordValues> {
  return collect<NewPasswordValues>({
    password: required(v.password),
    confirmPassword: v.confirmPassword === v.password ? null : 'validation.passwordMismatch',
  })
}

export type VerificationValues = { verificationCode: string }
export function validateVerification(v: VerificationValues): Errors<VerificationValues> {
  return collect<VerificationValues>({ verificationCode: numericCode(v.verificationCode) })
}

export type ChangePasswordValues = { currentPassword: string; newPassword: string; confirmNewPassword: string }
export function validateChangePassword(v: ChangePasswordValues): Errors<ChangePasswordValues> {
  return collect<ChangePasswordValues>({
    currentPassword: required(v.currentPassword),
    newPassword: required(v.newPassword),
    confirmNewPassword: required(v.confirmNewPassword) ?? (v.confirmNewPassword === v.newPassword ? null : 'validation.newPasswordMismatch'),
  })
}

export type ChangeEmailValues = { changedEmail: string }
export function validateChangeEmail(v: ChangeEmailValues): Errors<ChangeEmailValues> {
  return collect<ChangeEmailValues>({ changedEmail: email(v.changedEmail) })
}

export type OtpValues = { otp: string }
export function validateOtp(v: OtpValues): Errors<OtpValues> {
  return collect<OtpValues>({ otp: numericCode(v.otp) })
}
